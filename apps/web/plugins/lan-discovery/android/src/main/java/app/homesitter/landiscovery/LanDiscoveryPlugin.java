package app.homesitter.landiscovery;

import android.content.Context;
import android.net.ConnectivityManager;
import android.net.LinkAddress;
import android.net.LinkProperties;
import android.net.Network;
import android.net.NetworkCapabilities;
import android.net.wifi.WifiManager;
import com.getcapacitor.JSArray;
import com.getcapacitor.JSObject;
import com.getcapacitor.Plugin;
import com.getcapacitor.PluginCall;
import com.getcapacitor.PluginMethod;
import com.getcapacitor.annotation.CapacitorPlugin;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * `LanDiscovery`: the phone's camera transport (packages/cameras/src/transport/transport.ts) for the web app's
 * discovery. JSON in and out; the network work is LanTransport's, on a pool of its own so that a slow camera
 * never blocks Capacitor's plugin thread. WS-Discovery holds a Wi-Fi multicast lock while it listens: without
 * it many phones drop multicast and the answers to it.
 */
@CapacitorPlugin(name = "LanDiscovery")
public class LanDiscoveryPlugin extends Plugin {

    /** Port checks of one batch run side by side (the web side sends at most 64 per call). */
    private static final int PORT_CHECK_THREADS = 64;
    private final ExecutorService calls = Executors.newCachedThreadPool();
    private final ExecutorService portChecks = Executors.newFixedThreadPool(PORT_CHECK_THREADS);

    @Override
    protected void handleOnDestroy() {
        calls.shutdownNow();
        portChecks.shutdownNow();
    }

    /** The Wi-Fi's IPv4 address and prefix; `connected: false` off Wi-Fi (a phone scans nothing over mobile data). */
    @PluginMethod
    public void wifiInfo(PluginCall call) {
        ConnectivityManager connectivity = (ConnectivityManager) getContext().getSystemService(Context.CONNECTIVITY_SERVICE);
        JSObject result = new JSObject();
        result.put("connected", false);
        for (Network network : connectivity.getAllNetworks()) {
            NetworkCapabilities capabilities = connectivity.getNetworkCapabilities(network);
            LinkProperties link = connectivity.getLinkProperties(network);
            if (capabilities == null || link == null || !capabilities.hasTransport(NetworkCapabilities.TRANSPORT_WIFI)) continue;
            for (LinkAddress address : link.getLinkAddresses()) {
                if (!(address.getAddress() instanceof Inet4Address)) continue;
                result.put("connected", true);
                result.put("address", address.getAddress().getHostAddress());
                result.put("prefix", address.getPrefixLength());
            }
        }
        call.resolve(result);
    }

    @PluginMethod
    public void udpProbe(PluginCall call) {
        calls.execute(() -> {
            WifiManager wifi = (WifiManager) getContext().getApplicationContext().getSystemService(Context.WIFI_SERVICE);
            WifiManager.MulticastLock lock = wifi.createMulticastLock("homesitter-discovery");
            boolean multicast = Boolean.TRUE.equals(call.getBoolean("multicast", false));
            try {
                if (multicast) lock.acquire();
                List<InetSocketAddress> targets = new ArrayList<>();
                JSArray targetList = call.getArray("targets", new JSArray());
                for (int i = 0; i < targetList.length(); i++) {
                    JSONObject target = targetList.getJSONObject(i);
                    targets.add(new InetSocketAddress(target.getString("address"), target.getInt("port")));
                }
                List<String> messages = call.getArray("messages", new JSArray()).toList();
                List<LanTransport.Datagram> answers = LanTransport.udpProbe(
                    targets,
                    messages,
                    call.getInt("repeats", 1),
                    call.getInt("intervalMs", 0),
                    call.getInt("listenMs", 3000),
                    call.getInt("maxBytes", 65536)
                );
                JSArray list = new JSArray();
                for (LanTransport.Datagram answer : answers) {
                    JSObject item = new JSObject();
                    item.put("address", answer.address);
                    item.put("text", answer.text);
                    list.put(item);
                }
                JSObject result = new JSObject();
                result.put("answers", list);
                call.resolve(result);
            } catch (Exception failed) {
                call.reject("The Wi-Fi could not be probed: " + failed.getMessage(), "udp_failed", failed);
            } finally {
                if (lock.isHeld()) lock.release();
            }
        });
    }

    @PluginMethod
    public void tcpCheck(PluginCall call) {
        calls.execute(() -> {
            try {
                int timeoutMs = call.getInt("timeoutMs", 800);
                JSArray targets = call.getArray("targets", new JSArray());
                List<Future<Boolean>> checks = new ArrayList<>();
                for (int i = 0; i < targets.length(); i++) {
                    JSONObject target = targets.getJSONObject(i);
                    String host = target.getString("host");
                    int port = target.getInt("port");
                    checks.add(portChecks.submit(() -> LanTransport.tcpCheck(host, port, timeoutMs)));
                }
                JSArray open = new JSArray();
                for (int i = 0; i < checks.size(); i++) {
                    if (checks.get(i).get()) open.put(targets.getJSONObject(i));
                }
                JSObject result = new JSObject();
                result.put("open", open);
                call.resolve(result);
            } catch (Exception failed) {
                call.reject("The ports could not be checked: " + failed.getMessage(), "tcp_failed", failed);
            }
        });
    }

    @PluginMethod
    public void http(PluginCall call) {
        calls.execute(() -> {
            try {
                Map<String, String> headers = new LinkedHashMap<>();
                JSObject headerObject = call.getObject("headers", new JSObject());
                Iterator<String> names = headerObject.keys();
                while (names.hasNext()) {
                    String name = names.next();
                    headers.put(name, headerObject.getString(name));
                }
                LanTransport.Answer answer = LanTransport.http(
                    call.getString("url"),
                    call.getString("method", "GET"),
                    headers,
                    call.getString("body"),
                    call.getString("username"),
                    call.getString("password"),
                    call.getInt("timeoutMs", 3000),
                    call.getInt("maxBytes", 65536),
                    "base64".equals(call.getString("responseType"))
                );
                call.resolve(toJson(answer));
            } catch (JSONException failed) {
                call.reject("The request could not be read: " + failed.getMessage(), "bad_request", failed);
            }
        });
    }

    @PluginMethod
    public void rtsp(PluginCall call) {
        calls.execute(() -> {
            LanTransport.Answer answer = LanTransport.rtsp(
                call.getString("url"),
                call.getString("method", "OPTIONS"),
                call.getString("username"),
                call.getString("password"),
                call.getInt("timeoutMs", 2000)
            );
            try {
                call.resolve(toJson(answer));
            } catch (JSONException failed) {
                call.reject("The answer could not be written: " + failed.getMessage(), "bad_answer", failed);
            }
        });
    }

    private static JSObject toJson(LanTransport.Answer answer) throws JSONException {
        JSObject result = new JSObject();
        if (answer.error != null) {
            result.put("error", answer.error);
            return result;
        }
        JSObject headers = new JSObject();
        for (Map.Entry<String, String> header : answer.headers.entrySet()) headers.put(header.getKey(), header.getValue());
        result.put("status", answer.status);
        result.put("headers", headers);
        result.put("body", answer.body);
        return result;
    }
}
