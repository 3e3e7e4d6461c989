package app.homesitter.landiscovery;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.List;

/**
 * LanTransport from the command line, for apps/web/src/lan-discovery-plugin.test.ts, which runs it against
 * the simulated cameras (the Android code's network half, tested without a phone). A request body or UDP
 * message comes on standard input. Prints the answer's status (or its error) on the first line, then its body.
 *
 *   http URL METHOD USERNAME PASSWORD text|base64      tcp HOST PORT      rtsp URL METHOD USERNAME PASSWORD
 *   udp ADDRESS PORT LISTEN_MS
 */
public final class LanTransportCli {
    private LanTransportCli() {}

    public static void main(String[] args) throws Exception {
        String login = args.length > 3 && !args[3].equals("-") ? args[3] : null;
        String password = args.length > 4 ? args[4] : null;
        switch (args[0]) {
            case "http": {
                String body = args[2].equals("POST") ? readAll(System.in) : null;
                print(
                    LanTransport.http(
                        args[1],
                        args[2],
                        Collections.singletonMap("Content-Type", "application/soap+xml; charset=utf-8"),
                        body,
                        login,
                        password,
                        5000,
                        8 * 1024 * 1024,
                        args[5].equals("base64")
                    )
                );
                break;
            }
            case "rtsp":
                print(LanTransport.rtsp(args[1], args[2], login, password, 5000));
                break;
            case "tcp":
                System.out.println(LanTransport.tcpCheck(args[1], Integer.parseInt(args[2]), 800) ? "open" : "closed");
                break;
            case "udp": {
                List<LanTransport.Datagram> answers = LanTransport.udpProbe(
                    Collections.singletonList(new InetSocketAddress(args[1], Integer.parseInt(args[2]))),
                    Collections.singletonList(readAll(System.in)),
                    1,
                    0,
                    Integer.parseInt(args[3]),
                    65536
                );
                System.out.println(answers.size());
                for (LanTransport.Datagram answer : answers) System.out.println(answer.address + " " + answer.text.replace('\n', ' '));
                break;
            }
            default:
                throw new IllegalArgumentException("unknown call " + args[0]);
        }
    }

    private static void print(LanTransport.Answer answer) {
        System.out.println(answer.error != null ? answer.error : String.valueOf(answer.status));
        System.out.print(answer.body);
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        int read;
        while ((read = in.read(chunk)) >= 0) out.write(chunk, 0, read);
        return out.toString("UTF-8");
    }
}
