/**
 * What camera discovery needs from the network, as four calls that a phone's native code can answer as well
 * as Node: the phone app's discovery (discover.ts, camera-check.ts) runs on this interface, the Capacitor
 * plugin `LanDiscovery` (apps/web/plugins/lan-discovery, docs/mobile.md) implements it in Java and Swift, and
 * node-transport.ts implements it with dgram, net and http for the tests and the bench.
 *
 * Every call takes and answers plain JSON (a Capacitor plugin call can carry nothing else) and never rejects
 * for a network failure: it answers `error` instead, so a lost camera is a verdict, not an exception.
 */

/** Why a request got no answer: nothing listens / no route, or no answer within its timeout. */
export type TransportError = 'unreachable' | 'timed_out';

export interface UdpProbeRequest {
  /**
   * Where each message goes: the WS-Discovery group (`multicast: true`: Android and Node, under a Wi-Fi
   * multicast lock on Android) or every address of the subnet (iOS, which sends unicast only: multicast needs
   * an entitlement Apple grants on request).
   */
  targets: { address: string; port: number }[];
  multicast: boolean;
  /** Each message is sent to each target `repeats` times, `intervalMs` apart (UDP may lose some)… */
  messages: string[];
  repeats: number;
  intervalMs: number;
  /** …and answers are collected until `listenMs` after the last round. */
  listenMs: number;
  /** Answers longer than this (bytes) are dropped. */
  maxBytes: number;
  /** The interface address to send from; the system picks one when absent (tests send from 127.x.y.z). */
  localAddress?: string;
}

export interface UdpAnswer {
  /** The sender's IPv4 address. */
  address: string;
  text: string;
}

/** A batch of port checks: one bridge call for many connects, which the native side runs side by side. */
export interface TcpCheckRequest {
  targets: { host: string; port: number }[];
  timeoutMs: number;
}

export interface HttpExchangeRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** A camera's login; the transport answers a Basic or Digest challenge (401) with it. */
  username?: string;
  password?: string;
  timeoutMs: number;
  /** Larger answers are cut off as `unreachable` (nothing a camera sends in discovery is that large). */
  maxBytes: number;
  /** `base64` for images (the snapshot), `text` (UTF-8) for everything else. */
  responseType: 'text' | 'base64';
}

export interface RtspExchangeRequest {
  /** `rtsp://host:port/path`, without a login. */
  url: string;
  method: 'OPTIONS' | 'DESCRIBE';
  /** Answers a Basic or Digest challenge (401) like the HTTP call. */
  username?: string;
  password?: string;
  timeoutMs: number;
}

/** An HTTP or RTSP answer: the status line's code, lower-case header names, the body. */
export interface ExchangeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type ExchangeResult = ExchangeAnswer | { error: TransportError };

export interface CameraTransport {
  /** Sends the probes, then answers every datagram that came back within the listening time. */
  udpProbe(request: UdpProbeRequest): Promise<{ answers: UdpAnswer[] }>;
  /** The targets a TCP connection opened to within the timeout (each closed at once), in any order. */
  tcpCheck(request: TcpCheckRequest): Promise<{ open: { host: string; port: number }[] }>;
  http(request: HttpExchangeRequest): Promise<ExchangeResult>;
  rtsp(request: RtspExchangeRequest): Promise<ExchangeResult>;
}

export function isAnswer(result: ExchangeResult): result is ExchangeAnswer {
  return !('error' in result);
}
