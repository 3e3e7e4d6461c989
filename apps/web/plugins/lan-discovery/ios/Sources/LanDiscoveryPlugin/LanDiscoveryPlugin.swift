import Foundation
import Capacitor
import Darwin

/// `LanDiscovery`: mirrors android/.../LanDiscoveryPlugin.java (JSON in and out; the network work is
/// LanTransport's, off Capacitor's queue). iOS sends WS-Discovery unicast to every address of the subnet
/// (multicast needs an entitlement Apple grants on request), so there is no multicast lock here; the first
/// send makes iOS ask for the Local Network permission (NSLocalNetworkUsageDescription in Info.plist).
@objc(LanDiscoveryPlugin)
public class LanDiscoveryPlugin: CAPPlugin, CAPBridgedPlugin {
    public let identifier = "LanDiscoveryPlugin"
    public let jsName = "LanDiscovery"
    public let pluginMethods: [CAPPluginMethod] = [
        CAPPluginMethod(name: "wifiInfo", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "udpProbe", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "tcpCheck", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "http", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "rtsp", returnType: CAPPluginReturnPromise)
    ]

    /// Port checks of one batch run side by side (the web side sends at most 64 per call).
    private let portChecks = DispatchQueue(label: "homesitter.port-checks", attributes: .concurrent)
    private let calls = DispatchQueue(label: "homesitter.lan-discovery", attributes: .concurrent)

    /// The Wi-Fi's IPv4 address and prefix; `connected: false` off Wi-Fi (en0 is the Wi-Fi on every iPhone).
    @objc func wifiInfo(_ call: CAPPluginCall) {
        var result: [String: Any] = ["connected": false]
        var interfaces: UnsafeMutablePointer<ifaddrs>?
        if getifaddrs(&interfaces) == 0 {
            var cursor = interfaces
            while let entry = cursor?.pointee {
                if String(cString: entry.ifa_name) == "en0", let address = entry.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET), let mask = entry.ifa_netmask {
                    let ip = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { String(cString: inet_ntoa($0.pointee.sin_addr)) }
                    let bits = mask.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr).nonzeroBitCount }
                    result = ["connected": true, "address": ip, "prefix": bits]
                }
                cursor = entry.ifa_next
            }
            freeifaddrs(interfaces)
        }
        call.resolve(result)
    }

    @objc func udpProbe(_ call: CAPPluginCall) {
        calls.async {
            let targets = (call.getArray("targets") as? [[String: Any]] ?? []).compactMap { target -> (String, Int)? in
                guard let address = target["address"] as? String, let port = target["port"] as? Int else { return nil }
                return (address, port)
            }
            let answers = LanTransport.udpProbe(
                targets: targets,
                messages: call.getArray("messages") as? [String] ?? [],
                repeats: call.getInt("repeats") ?? 1,
                intervalMs: call.getInt("intervalMs") ?? 0,
                listenMs: call.getInt("listenMs") ?? 3000,
                maxBytes: call.getInt("maxBytes") ?? 65536
            )
            call.resolve(["answers": answers.map { ["address": $0.address, "text": $0.text] }])
        }
    }

    @objc func tcpCheck(_ call: CAPPluginCall) {
        calls.async {
            let timeoutMs = call.getInt("timeoutMs") ?? 800
            let targets = call.getArray("targets") as? [[String: Any]] ?? []
            var open = [Bool](repeating: false, count: targets.count)
            let lock = NSLock()
            let group = DispatchGroup()
            for (index, target) in targets.enumerated() {
                guard let host = target["host"] as? String, let port = target["port"] as? Int else { continue }
                self.portChecks.async(group: group) {
                    let reached = LanTransport.tcpCheck(host: host, port: port, timeoutMs: timeoutMs)
                    lock.lock()
                    open[index] = reached
                    lock.unlock()
                }
            }
            group.wait()
            call.resolve(["open": targets.enumerated().filter { open[$0.offset] }.map { $0.element }])
        }
    }

    @objc func http(_ call: CAPPluginCall) {
        calls.async {
            let answer = LanTransport.http(
                url: call.getString("url") ?? "",
                method: call.getString("method") ?? "GET",
                headers: call.getObject("headers") as? [String: String] ?? [:],
                body: call.getString("body"),
                username: call.getString("username"),
                password: call.getString("password"),
                timeoutMs: call.getInt("timeoutMs") ?? 3000,
                maxBytes: call.getInt("maxBytes") ?? 65536,
                base64: call.getString("responseType") == "base64"
            )
            call.resolve(LanDiscoveryPlugin.toJson(answer))
        }
    }

    @objc func rtsp(_ call: CAPPluginCall) {
        calls.async {
            let answer = LanTransport.rtsp(
                url: call.getString("url") ?? "",
                method: call.getString("method") ?? "OPTIONS",
                username: call.getString("username"),
                password: call.getString("password"),
                timeoutMs: call.getInt("timeoutMs") ?? 2000
            )
            call.resolve(LanDiscoveryPlugin.toJson(answer))
        }
    }

    private static func toJson(_ answer: LanTransport.Answer) -> [String: Any] {
        if let error = answer.error { return ["error": error] }
        return ["status": answer.status, "headers": answer.headers, "body": answer.body]
    }
}
