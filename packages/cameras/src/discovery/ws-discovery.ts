/**
 * WS-Discovery (ONVIF's "find the cameras"): a SOAP 1.2 Probe multicast to 239.255.255.250:3702 from each
 * local interface, answered by each device with a unicast ProbeMatches naming its device service (XAddrs),
 * its types and its scopes (name, hardware, manufacturer).
 *
 * Two probes go out, each three times against UDP loss: one for `dn:NetworkVideoTransmitter` (cameras) and a
 * generic one for `tds:Device`, which recorders, access controllers and some cameras answer instead. Only
 * answers that relate to one of our MessageIDs count. Vendors differ in namespace prefixes, in white space
 * and in how they encode scopes, so the answers are read by local names with regular expressions, and
 * anything unreadable is ignored, never thrown.
 */
import { randomUUID } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import type { CameraLogger } from '../types.js';
import {
  buildProbe,
  describeMatch,
  LISTEN_AFTER_LAST_PROBE_MS,
  MAX_MESSAGE_BYTES,
  parseProbeMatches,
  PROBE_INTERVAL_MS,
  PROBE_REPEATS,
  sameMessageId,
  WS_DISCOVERY_GROUP,
  WS_DISCOVERY_PORT,
  type WsDiscoveryAnswer,
} from './ws-discovery-messages.js';

export {
  buildProbe,
  describeMatch,
  parseProbeMatches,
  sameMessageId,
  WS_DISCOVERY_GROUP,
  WS_DISCOVERY_PORT,
  type ProbeMatch,
  type ProbeMatches,
  type WsDiscoveryAnswer,
} from './ws-discovery-messages.js';

export interface WsDiscoveryOptions {
  /** IPv4 addresses of the interfaces to probe from (one socket each). */
  interfaces: string[];
  group?: string;
  port?: number;
  signal: AbortSignal;
  onAnswer(answer: WsDiscoveryAnswer, source: string): void;
  log?: CameraLogger | undefined;
}

/**
 * Probes from every interface and reports each answer to one of our probes. Resolves once it has listened
 * long enough after the last probe, or at once when `signal` aborts; either way every socket is closed and
 * no timer is left. Never rejects: a socket that cannot be opened is logged (debug) and left out.
 */
export async function runWsDiscovery(options: WsDiscoveryOptions): Promise<void> {
  const { signal, log } = options;
  const group = options.group ?? WS_DISCOVERY_GROUP;
  const port = options.port ?? WS_DISCOVERY_PORT;
  const probes = (['camera', 'device'] as const).map((target) => {
    const id = `urn:uuid:${randomUUID()}`;
    return { id, message: Buffer.from(buildProbe(id, target)) };
  });
  if (signal.aborted) return;

  const sockets = (
    await Promise.all(options.interfaces.map((address) => openSocket(address, options)))
  ).filter((socket): socket is Socket => socket !== null);
  if (sockets.length === 0) return;

  return new Promise<void>((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      timers.forEach(clearTimeout);
      signal.removeEventListener('abort', close);
      for (const socket of sockets) socket.close();
      resolve();
    };
    if (signal.aborted) return close();
    signal.addEventListener('abort', close, { once: true });

    for (const socket of sockets) {
      socket.on('message', (message, remote) => {
        if (!closed) receive(message, remote);
      });
    }
    const receive = (message: Buffer, remote: RemoteInfo) => {
      if (message.length > MAX_MESSAGE_BYTES) return;
      const parsed = parseProbeMatches(message.toString('utf8'));
      if (!parsed) return;
      const relatesTo = parsed.relatesTo;
      if (!relatesTo || !probes.some((probe) => sameMessageId(probe.id, relatesTo))) {
        log?.debug({ from: remote.address }, 'ws-discovery: an answer to someone else’s probe, ignored');
        return;
      }
      for (const match of parsed.matches) {
        const answer = describeMatch(match, remote.address);
        if (answer) options.onAnswer(answer, remote.address);
      }
    };

    const sendRound = () => {
      for (const socket of sockets) {
        for (const probe of probes) {
          socket.send(probe.message, port, group, (err) => {
            if (err) log?.debug({ err: err.message }, 'ws-discovery: a probe could not be sent');
          });
        }
      }
    };
    for (let round = 0; round < PROBE_REPEATS; round++) {
      timers.push(setTimeout(() => !closed && sendRound(), round * PROBE_INTERVAL_MS));
    }
    timers.push(setTimeout(close, (PROBE_REPEATS - 1) * PROBE_INTERVAL_MS + LISTEN_AFTER_LAST_PROBE_MS));
  });
}

/** A UDP socket on the interface's address, sending multicast out of that interface; null when it fails. */
function openSocket(address: string, options: WsDiscoveryOptions): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = createSocket({ type: 'udp4' });
    const fail = (err: Error) => {
      options.log?.debug({ interface: address, err: err.message }, 'ws-discovery: cannot probe from here');
      socket.close();
      resolve(null);
    };
    socket.once('error', fail);
    socket.bind(0, address, () => {
      try {
        socket.setMulticastInterface(address);
      } catch (err) {
        return fail(err instanceof Error ? err : new Error(String(err)));
      }
      socket.off('error', fail);
      // A late error (an unreachable interface) must not crash the process.
      socket.on('error', (err) =>
        options.log?.debug({ interface: address, err: err.message }, 'ws-discovery: socket error'),
      );
      resolve(socket);
    });
  });
}
