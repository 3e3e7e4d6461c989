import Foundation
import CryptoKit
import Darwin

/// The camera transport of packages/cameras/src/transport/transport.ts, mirroring
/// android/.../LanTransport.java line for line (BSD sockets where Java has java.net). It cannot be compiled
/// on the project's Linux machines (docs/mobile.md): keep every change in step with the Java file.
/// Network failures are answers ("unreachable", "timed_out"), never thrown.
enum LanTransport {

    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: String
        let error: String?

        static func failed(_ error: String) -> Answer {
            return Answer(status: 0, headers: [:], body: "", error: error)
        }
    }

    struct Datagram {
        let address: String
        let text: String
    }

    private static let maxRtspAnswerBytes = 64 * 1024

    /// Sends every message to every target `repeats` times, then collects answers until `listenMs` after the last round.
    static func udpProbe(targets: [(String, Int)], messages: [String], repeats: Int, intervalMs: Int, listenMs: Int, maxBytes: Int) -> [Datagram] {
        var answers: [Datagram] = []
        let fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP)
        if fd < 0 { return answers }
        defer { close(fd) }
        var wait = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        let lastRound = now() + (repeats - 1) * intervalMs
        let end = lastRound + listenMs
        var nextRound = now()
        var sent = 0
        var buffer = [UInt8](repeating: 0, count: maxBytes + 1)
        while now() < end {
            if sent < repeats && now() >= nextRound {
                for (address, port) in targets {
                    for message in messages {
                        var target = socketAddress(address, port)
                        let payload = Array(message.utf8)
                        // One unreachable address (unicast to the whole subnet) must not stop the others.
                        _ = withUnsafePointer(to: &target) {
                            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                                sendto(fd, payload, payload.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                            }
                        }
                    }
                }
                sent += 1
                nextRound += intervalMs
            }
            var from = sockaddr_in()
            var fromLength = socklen_t(MemoryLayout<sockaddr_in>.size)
            let length = withUnsafeMutablePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, &buffer, buffer.count, 0, $0, &fromLength)
                }
            }
            if length < 0 { continue }
            if length > maxBytes { continue }
            answers.append(Datagram(address: String(cString: inet_ntoa(from.sin_addr)), text: String(decoding: buffer[0..<length], as: UTF8.self)))
        }
        return answers
    }

    /// Whether a TCP connection opens within the timeout; it is closed at once.
    static func tcpCheck(host: String, port: Int, timeoutMs: Int) -> Bool {
        let fd = connectTcp(host: host, port: port, timeoutMs: timeoutMs)
        if fd < 0 { return false }
        close(fd)
        return true
    }

    /// One HTTP request; a 401 is answered once more with the login (Basic or Digest).
    static func http(url: String, method: String, headers: [String: String], body: String?, username: String?, password: String?, timeoutMs: Int, maxBytes: Int, base64: Bool) -> Answer {
        let deadline = now() + timeoutMs
        let first = httpOnce(url: url, method: method, headers: headers, body: body, authorization: nil, deadline: deadline, maxBytes: maxBytes, base64: base64)
        if first.error != nil || first.status != 401 || username == nil { return first }
        guard let challenge = first.headers["www-authenticate"] else { return first }
        guard let parsed = URLComponents(string: url) else { return Answer.failed("unreachable") }
        let uri = (parsed.percentEncodedPath.isEmpty ? "/" : parsed.percentEncodedPath) + (parsed.percentEncodedQuery.map { "?" + $0 } ?? "")
        guard let authorization = authorization(challenge: challenge, username: username!, password: password, method: method, uri: uri) else { return first }
        return httpOnce(url: url, method: method, headers: headers, body: body, authorization: authorization, deadline: deadline, maxBytes: maxBytes, base64: base64)
    }

    private static func httpOnce(url: String, method: String, headers: [String: String], body: String?, authorization: String?, deadline: Int, maxBytes: Int, base64: Bool) -> Answer {
        guard let target = URL(string: url) else { return Answer.failed("unreachable") }
        let left = max(1, deadline - now())
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Double(left) / 1000)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let authorization = authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        request.setValue("close", forHTTPHeaderField: "Connection")
        if let body = body { request.httpBody = Data(body.utf8) }
        var answer = Answer.failed("unreachable")
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            defer { done.signal() }
            if let error = error as? URLError {
                answer = Answer.failed(error.code == .timedOut ? "timed_out" : "unreachable")
                return
            }
            guard let response = response as? HTTPURLResponse, let data = data else { return }
            if data.count > maxBytes { return }
            var answerHeaders: [String: String] = [:]
            for (name, value) in response.allHeaderFields { answerHeaders["\(name)".lowercased()] = "\(value)" }
            let text = base64 ? data.base64EncodedString() : String(decoding: data, as: UTF8.self)
            answer = Answer(status: response.statusCode, headers: answerHeaders, body: text, error: nil)
        }.resume()
        done.wait()
        return answer
    }

    /// OPTIONS or DESCRIBE over one RTSP connection; a 401 is answered once more with the login.
    static func rtsp(url: String, method: String, username: String?, password: String?, timeoutMs: Int) -> Answer {
        let deadline = now() + timeoutMs
        // URLComponents reads an rtsp: authority like http's.
        guard let parsed = URLComponents(string: url), let host = parsed.host else { return Answer.failed("unreachable") }
        let port = parsed.port ?? 554
        let fd = connectTcp(host: host, port: port, timeoutMs: timeoutMs)
        if fd < 0 { return Answer.failed(fd == -2 ? "timed_out" : "unreachable") }
        defer { close(fd) }
        let first = rtspAsk(fd: fd, url: url, method: method, cseq: 1, authorization: nil, deadline: deadline)
        if first.error != nil || first.status != 401 || username == nil { return first }
        guard let challenge = first.headers["www-authenticate"],
              let authorization = authorization(challenge: challenge, username: username!, password: password, method: method, uri: url) else { return first }
        return rtspAsk(fd: fd, url: url, method: method, cseq: 2, authorization: authorization, deadline: deadline)
    }

    private static func rtspAsk(fd: Int32, url: String, method: String, cseq: Int, authorization: String?, deadline: Int) -> Answer {
        var request = "\(method) \(url) RTSP/1.0\r\n"
        request += "CSeq: \(cseq)\r\nUser-Agent: Homesitter\r\n"
        if method == "DESCRIBE" { request += "Accept: application/sdp\r\n" }
        if let authorization = authorization { request += "Authorization: \(authorization)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        if send(fd, bytes, bytes.count, 0) < 0 { return Answer.failed("unreachable") }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = indexOf(received, Array("\r\n\r\n".utf8)) {
                let head = String(decoding: received[0..<end], as: UTF8.self)
                let lines = head.components(separatedBy: "\r\n")
                guard let status = statusCode(lines[0]) else { return Answer.failed("unreachable") }
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                if received.count >= end + 4 + length {
                    let body = String(decoding: received[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                    return Answer(status: status, headers: headers, body: body, error: nil)
                }
            }
            if received.count > maxRtspAnswerBytes { return Answer.failed("unreachable") }
            let left = deadline - now()
            if left <= 0 { return Answer.failed("timed_out") }
            var wait = timeval(tv_sec: left / 1000, tv_usec: Int32((left % 1000) * 1000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            let read = recv(fd, &chunk, chunk.count, 0)
            if read < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return Answer.failed("timed_out") }
            if read <= 0 { return Answer.failed("unreachable") }
            received.append(contentsOf: chunk[0..<read])
        }
    }

    /// The Authorization answer to a Basic or Digest (MD5, qop=auth or none) challenge; nil for other schemes.
    static func authorization(challenge: String, username: String, password: String?, method: String, uri: String) -> String? {
        guard let digestAt = challenge.lowercased().range(of: "digest ") else {
            if !challenge.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("basic") { return nil }
            return "Basic " + Data("\(username):\(password ?? "")".utf8).base64EncodedString()
        }
        var params: [String: String] = [:]
        let rest = String(challenge[digestAt.upperBound...])
        let pattern = try! NSRegularExpression(pattern: "(\\w+)\\s*=\\s*(?:\"([^\"]*)\"|([^\\s,]+))")
        for match in pattern.matches(in: rest, range: NSRange(rest.startIndex..., in: rest)) {
            let name = String(rest[Range(match.range(at: 1), in: rest)!]).lowercased()
            let quoted = Range(match.range(at: 2), in: rest).map { String(rest[$0]) }
            params[name] = quoted ?? Range(match.range(at: 3), in: rest).map { String(rest[$0]) } ?? ""
        }
        let realm = params["realm"] ?? ""
        let nonce = params["nonce"] ?? ""
        let ha1 = md5("\(username):\(realm):\(password ?? "")")
        let ha2 = md5("\(method):\(uri)")
        var header = "Digest "
        header += "username=\"\(username)\", realm=\"\(realm)"
        header += "\", nonce=\"\(nonce)\", uri=\"\(uri)\""
        if let qop = params["qop"], qop.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "auth" }) {
            let cnonce = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            let nc = "00000001"
            header += ", response=\"\(md5("\(ha1):\(nonce):\(nc):\(cnonce):auth:\(ha2)"))"
            header += "\", qop=auth, nc=\(nc), cnonce=\"\(cnonce)\""
        } else {
            header += ", response=\"\(md5("\(ha1):\(nonce):\(ha2)"))\""
        }
        if let opaque = params["opaque"] { header += ", opaque=\"\(opaque)\"" }
        header += ", algorithm=MD5"
        return header
    }

    private static func md5(_ text: String) -> String {
        return Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("RTSP/1.") || parts[0].hasPrefix("HTTP/1."), parts[1].count == 3 else { return nil }
        return Int(parts[1])
    }

    /// A connected socket; -1 when refused or unreachable, -2 when it did not connect within the timeout.
    private static func connectTcp(host: String, port: Int, timeoutMs: Int) -> Int32 {
        let fd = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP)
        if fd < 0 { return -1 }
        var address = socketAddress(host, port)
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let started = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if started < 0 && errno != EINPROGRESS { close(fd); return -1 }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, Int32(timeoutMs))
        if ready <= 0 { close(fd); return -2 }
        var failure: Int32 = 0
        var failureLength = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &failureLength)
        if failure != 0 { close(fd); return -1 }
        _ = fcntl(fd, F_SETFL, flags)
        return fd
    }

    private static func socketAddress(_ host: String, _ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    private static func indexOf(_ bytes: [UInt8], _ needle: [UInt8]) -> Int? {
        if bytes.count < needle.count { return nil }
        for i in 0...(bytes.count - needle.count) where Array(bytes[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    private static func now() -> Int {
        return Int(Date().timeIntervalSince1970 * 1000)
    }
}
