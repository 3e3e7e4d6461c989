package app.homesitter.landiscovery;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The camera transport of packages/cameras/src/transport/transport.ts on Java sockets, without Capacitor: the
 * plugin (LanDiscoveryPlugin) only converts JSON. node-transport.ts does the same in Node and
 * LanTransport.swift mirrors this file line for line. Network failures are answers ("unreachable",
 * "timed_out"), never exceptions.
 */
final class LanTransport {

    static final class Answer {
        final int status;
        final Map<String, String> headers;
        final String body;
        final String error;

        Answer(int status, Map<String, String> headers, String body, String error) {
            this.status = status;
            this.headers = headers;
            this.body = body;
            this.error = error;
        }

        static Answer failed(String error) {
            return new Answer(0, new LinkedHashMap<>(), "", error);
        }
    }

    static final class Datagram {
        final String address;
        final String text;

        Datagram(String address, String text) {
            this.address = address;
            this.text = text;
        }
    }

    private static final int MAX_RTSP_ANSWER_BYTES = 64 * 1024;
    private static final Pattern STATUS_LINE = Pattern.compile("^(?:RTSP|HTTP)/1\\.\\d (\\d{3})\\b");
    private static final Pattern PARAM = Pattern.compile("(\\w+)\\s*=\\s*(?:\"([^\"]*)\"|([^\\s,]+))");

    private LanTransport() {}

    /** Sends every message to every target `repeats` times, then collects answers until `listenMs` after the last round. */
    static List<Datagram> udpProbe(
        List<InetSocketAddress> targets,
        List<String> messages,
        int repeats,
        int intervalMs,
        int listenMs,
        int maxBytes
    ) throws IOException, InterruptedException {
        List<Datagram> answers = new ArrayList<>();
        try (MulticastSocket socket = new MulticastSocket(0)) {
            socket.setSoTimeout(50);
            long lastRound = System.currentTimeMillis() + (long) (repeats - 1) * intervalMs;
            long end = lastRound + listenMs;
            long nextRound = System.currentTimeMillis();
            int sent = 0;
            byte[] buffer = new byte[maxBytes + 1];
            while (System.currentTimeMillis() < end) {
                if (sent < repeats && System.currentTimeMillis() >= nextRound) {
                    for (InetSocketAddress target : targets) {
                        for (String message : messages) {
                            byte[] payload = message.getBytes(StandardCharsets.UTF_8);
                            try {
                                socket.send(new DatagramPacket(payload, payload.length, target));
                            } catch (IOException ignored) {
                                // One unreachable address (iOS-style unicast to the whole subnet) must not stop the others.
                            }
                        }
                    }
                    sent += 1;
                    nextRound += intervalMs;
                }
                DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                try {
                    socket.receive(packet);
                } catch (SocketTimeoutException quiet) {
                    continue;
                }
                if (packet.getLength() > maxBytes) continue;
                answers.add(
                    new Datagram(
                        packet.getAddress().getHostAddress(),
                        new String(packet.getData(), 0, packet.getLength(), StandardCharsets.UTF_8)
                    )
                );
            }
        }
        return answers;
    }

    /** Whether a TCP connection opens within the timeout; it is closed at once. */
    static boolean tcpCheck(String host, int port, int timeoutMs) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getByName(host), port), timeoutMs);
            return true;
        } catch (IOException closed) {
            return false;
        }
    }

    /** One HTTP request; a 401 is answered once more with the login (Basic or Digest). */
    static Answer http(
        String url,
        String method,
        Map<String, String> headers,
        String body,
        String username,
        String password,
        int timeoutMs,
        int maxBytes,
        boolean base64
    ) {
        long deadline = System.currentTimeMillis() + timeoutMs;
        Answer first = httpOnce(url, method, headers, body, null, deadline, maxBytes, base64);
        if (first.error != null || first.status != 401 || username == null) return first;
        String challenge = first.headers.get("www-authenticate");
        if (challenge == null) return first;
        URL parsed;
        try {
            parsed = new URL(url);
        } catch (IOException bad) {
            return Answer.failed("unreachable");
        }
        String uri = parsed.getFile().isEmpty() ? "/" : parsed.getFile();
        String authorization = authorization(challenge, username, password, method, uri);
        if (authorization == null) return first;
        return httpOnce(url, method, headers, body, authorization, deadline, maxBytes, base64);
    }

    private static Answer httpOnce(
        String url,
        String method,
        Map<String, String> headers,
        String body,
        String authorization,
        long deadline,
        int maxBytes,
        boolean base64
    ) {
        HttpURLConnection connection = null;
        try {
            int left = (int) Math.max(1, deadline - System.currentTimeMillis());
            connection = (HttpURLConnection) new URL(url).openConnection();
            connection.setConnectTimeout(left);
            connection.setReadTimeout(left);
            connection.setInstanceFollowRedirects(false);
            connection.setRequestMethod(method);
            for (Map.Entry<String, String> header : headers.entrySet()) {
                connection.setRequestProperty(header.getKey(), header.getValue());
            }
            if (authorization != null) connection.setRequestProperty("Authorization", authorization);
            connection.setRequestProperty("Connection", "close");
            if (body != null) {
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                connection.setDoOutput(true);
                connection.setFixedLengthStreamingMode(bytes.length);
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(bytes);
                }
            }
            int status = connection.getResponseCode();
            Map<String, String> answerHeaders = new LinkedHashMap<>();
            for (Map.Entry<String, List<String>> header : connection.getHeaderFields().entrySet()) {
                if (header.getKey() == null) continue;
                answerHeaders.put(header.getKey().toLowerCase(Locale.ROOT), String.join(", ", header.getValue()));
            }
            InputStream stream = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            byte[] bytes = stream == null ? new byte[0] : readAll(stream, maxBytes);
            if (bytes == null) return Answer.failed("unreachable");
            String text = base64 ? base64(bytes) : new String(bytes, StandardCharsets.UTF_8);
            return new Answer(status, answerHeaders, text, null);
        } catch (SocketTimeoutException slow) {
            return Answer.failed("timed_out");
        } catch (IOException | RuntimeException failed) {
            return Answer.failed("unreachable");
        } finally {
            if (connection != null) connection.disconnect();
        }
    }

    /** OPTIONS or DESCRIBE over one RTSP connection; a 401 is answered once more with the login. */
    static Answer rtsp(String url, String method, String username, String password, int timeoutMs) {
        long deadline = System.currentTimeMillis() + timeoutMs;
        URL parsed;
        String host;
        int port;
        try {
            // java.net.URL knows no rtsp: scheme; the authority reads the same as http's.
            parsed = new URL("http" + url.substring(url.indexOf(':')));
            host = parsed.getHost();
            port = parsed.getPort() == -1 ? 554 : parsed.getPort();
        } catch (IOException | RuntimeException bad) {
            return Answer.failed("unreachable");
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getByName(host), port), timeoutMs);
            Answer first = rtspAsk(socket, url, method, 1, null, deadline);
            if (first.error != null || first.status != 401 || username == null) return first;
            String challenge = first.headers.get("www-authenticate");
            String authorization = challenge == null ? null : authorization(challenge, username, password, method, url);
            if (authorization == null) return first;
            return rtspAsk(socket, url, method, 2, authorization, deadline);
        } catch (SocketTimeoutException slow) {
            return Answer.failed("timed_out");
        } catch (IOException failed) {
            return Answer.failed("unreachable");
        }
    }

    private static Answer rtspAsk(Socket socket, String url, String method, int cseq, String authorization, long deadline)
        throws IOException {
        StringBuilder request = new StringBuilder();
        request.append(method).append(' ').append(url).append(" RTSP/1.0\r\n");
        request.append("CSeq: ").append(cseq).append("\r\nUser-Agent: Homesitter\r\n");
        if (method.equals("DESCRIBE")) request.append("Accept: application/sdp\r\n");
        if (authorization != null) request.append("Authorization: ").append(authorization).append("\r\n");
        request.append("\r\n");
        socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] chunk = new byte[4096];
        while (true) {
            byte[] bytes = received.toByteArray();
            int end = indexOf(bytes, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            if (end >= 0) {
                String head = new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
                String[] lines = head.split("\r\n");
                Matcher status = STATUS_LINE.matcher(lines[0]);
                if (!status.find()) return Answer.failed("unreachable");
                Map<String, String> headers = new LinkedHashMap<>();
                for (int i = 1; i < lines.length; i++) {
                    int colon = lines[i].indexOf(':');
                    if (colon > 0) headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
                }
                int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
                if (bytes.length >= end + 4 + length) {
                    String body = new String(bytes, end + 4, length, StandardCharsets.UTF_8);
                    return new Answer(Integer.parseInt(status.group(1)), headers, body, null);
                }
            }
            if (bytes.length > MAX_RTSP_ANSWER_BYTES) return Answer.failed("unreachable");
            int left = (int) (deadline - System.currentTimeMillis());
            if (left <= 0) return Answer.failed("timed_out");
            socket.setSoTimeout(left);
            int read = in.read(chunk);
            if (read < 0) return Answer.failed("unreachable");
            received.write(chunk, 0, read);
        }
    }

    /** The Authorization answer to a Basic or Digest (MD5, qop=auth or none) challenge; null for other schemes. */
    static String authorization(String challenge, String username, String password, String method, String uri) {
        int digestAt = challenge.toLowerCase(Locale.ROOT).indexOf("digest ");
        if (digestAt < 0) {
            if (!challenge.trim().toLowerCase(Locale.ROOT).startsWith("basic")) return null;
            String pair = username + ":" + (password == null ? "" : password);
            return "Basic " + base64(pair.getBytes(StandardCharsets.UTF_8));
        }
        Map<String, String> params = new LinkedHashMap<>();
        Matcher param = PARAM.matcher(challenge.substring(digestAt + 7));
        while (param.find()) params.put(param.group(1).toLowerCase(Locale.ROOT), param.group(2) != null ? param.group(2) : param.group(3));
        String realm = params.getOrDefault("realm", "");
        String nonce = params.getOrDefault("nonce", "");
        String ha1 = md5(username + ":" + realm + ":" + (password == null ? "" : password));
        String ha2 = md5(method + ":" + uri);
        StringBuilder header = new StringBuilder("Digest ");
        header.append("username=\"").append(username).append("\", realm=\"").append(realm);
        header.append("\", nonce=\"").append(nonce).append("\", uri=\"").append(uri).append('"');
        String qop = params.get("qop");
        if (qop != null && Arrays.stream(qop.split(",")).anyMatch(value -> value.trim().equals("auth"))) {
            byte[] random = new byte[8];
            new SecureRandom().nextBytes(random);
            String cnonce = hex(random);
            String nc = "00000001";
            header.append(", response=\"").append(md5(ha1 + ":" + nonce + ":" + nc + ":" + cnonce + ":auth:" + ha2));
            header.append("\", qop=auth, nc=").append(nc).append(", cnonce=\"").append(cnonce).append('"');
        } else {
            header.append(", response=\"").append(md5(ha1 + ":" + nonce + ":" + ha2)).append('"');
        }
        if (params.containsKey("opaque")) header.append(", opaque=\"").append(params.get("opaque")).append('"');
        header.append(", algorithm=MD5");
        return header.toString();
    }

    private static final char[] BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".toCharArray();

    /** java.util.Base64 needs Android 8 (API 26); the app runs from Android 7 (API 24). */
    static String base64(byte[] bytes) {
        StringBuilder text = new StringBuilder((bytes.length + 2) / 3 * 4);
        for (int i = 0; i < bytes.length; i += 3) {
            int b0 = bytes[i] & 0xff;
            int b1 = i + 1 < bytes.length ? bytes[i + 1] & 0xff : 0;
            int b2 = i + 2 < bytes.length ? bytes[i + 2] & 0xff : 0;
            text.append(BASE64[b0 >> 2]).append(BASE64[((b0 & 3) << 4) | (b1 >> 4)]);
            text.append(i + 1 < bytes.length ? BASE64[((b1 & 15) << 2) | (b2 >> 6)] : '=');
            text.append(i + 2 < bytes.length ? BASE64[b2 & 63] : '=');
        }
        return text.toString();
    }

    private static String md5(String text) {
        try {
            return hex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (byte b : bytes) text.append(String.format(Locale.ROOT, "%02x", b));
        return text.toString();
    }

    /** The whole stream, or null when it is longer than `maxBytes`. */
    private static byte[] readAll(InputStream in, int maxBytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        int read;
        while ((read = in.read(chunk)) >= 0) {
            out.write(chunk, 0, read);
            if (out.size() > maxBytes) return null;
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] bytes, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= bytes.length; i++) {
            for (int j = 0; j < needle.length; j++) if (bytes[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }
}
