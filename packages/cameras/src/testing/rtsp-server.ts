/**
 * A small RTSP server for tests: ffmpeg publishes to it (ANNOUNCE/RECORD over TCP) and players pull the same
 * path (DESCRIBE/SETUP/PLAY over TCP interleaved), so stream code is tested against a real protocol peer
 * without a camera. It relays RTP as is; it never parses media.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface RtspServerOptions {
  /** A login players must give; publishers need none. Absent: players need no login either. */
  auth?: { username: string; password: string; scheme?: 'digest' | 'basic' } | undefined;
  /** The Digest/Basic realm. */
  realm?: string;
  /**
   * The addresses to listen on, all on the same port and serving the same paths (several simulated
   * cameras sharing one publisher); default `['127.0.0.1']`. `url()` names the first.
   */
  hosts?: string[];
  /** The port to listen on; default a free one. */
  port?: number;
}

export interface RtspServerStats {
  /** Paths with a publisher, e.g. `/main`. */
  publishers: string[];
  /** Playing connections per path. */
  players: Record<string, number>;
}

export interface RtspTestServer {
  port: number;
  /** `rtsp://HOST:PORT/path` (the first host) without a login; `withLogin` puts the configured one inside. */
  url(path: string, withLogin?: boolean): string;
  stats(): RtspServerStats;
  /** Resolves once `path` has a recording publisher (at once when it has one already). */
  waitForPublisher(path: string): Promise<void>;
  /** Closes players' connections (of one path, or all): to a client this looks like the camera dropping it. */
  dropPlayers(path?: string): void;
  close(): Promise<void>;
}

interface Track {
  control: string;
}

interface Publication {
  path: string;
  sdp: string;
  tracks: Track[];
  publisher: Connection;
  /** The publisher's interleaved channel → [track index, 0 for RTP | 1 for RTCP]. */
  channels: Map<number, [number, 0 | 1]>;
  recording: boolean;
  players: Set<Connection>;
}

interface Connection {
  socket: Socket;
  session: string;
  /** For a player: the path it plays, and per track the interleaved RTP channel it asked for. */
  playing: { publication: Publication; channels: Map<number, number> } | null;
  setup: { publication: Publication; channels: Map<number, number> } | null;
  publishing: Publication | null;
}

interface Request {
  method: string;
  uri: string;
  headers: Map<string, string>;
  body: Buffer;
}

/** Past this much unsent data a player is too slow to keep; it is dropped like a real server would. */
const MAX_PLAYER_BACKLOG = 8 * 1024 * 1024;

export async function startRtspServer(options: RtspServerOptions = {}): Promise<RtspTestServer> {
  const realm = options.realm ?? 'Homesitter test camera';
  const nonces = new Set<string>();
  const publications = new Map<string, Publication>();
  const connections = new Set<Connection>();
  const waiters = new Map<string, Array<() => void>>();
  const hosts = options.hosts?.length ? options.hosts : ['127.0.0.1'];

  const onConnection = (socket: Socket) => {
    socket.setNoDelay(true);
    const connection: Connection = {
      socket,
      session: randomBytes(8).toString('hex'),
      playing: null,
      setup: null,
      publishing: null,
    };
    connections.add(connection);
    let buffer: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      buffer = consume(connection, buffer);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      connections.delete(connection);
      forget(connection);
    });
  };

  function consume(connection: Connection, input: Buffer): Buffer {
    let buffer = input;
    while (buffer.length > 0 && !connection.socket.destroyed) {
      if (buffer[0] === 0x24) {
        if (buffer.length < 4) break;
        const length = buffer.readUInt16BE(2);
        if (buffer.length < 4 + length) break;
        relay(connection, buffer.subarray(0, 4 + length));
        buffer = buffer.subarray(4 + length);
        continue;
      }
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffer.length > 64 * 1024) connection.socket.destroy();
        break;
      }
      const head = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const [method = '', uri = ''] = (head[0] ?? '').split(' ');
      const headers = new Map<string, string>();
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      const bodyLength = Number(headers.get('content-length') ?? 0);
      if (buffer.length < end + 4 + bodyLength) break;
      const body = Buffer.from(buffer.subarray(end + 4, end + 4 + bodyLength));
      buffer = buffer.subarray(end + 4 + bodyLength);
      handle(connection, { method, uri, headers, body });
    }
    // Keep only the unread rest, not the whole chunk it came from.
    return Buffer.from(buffer);
  }

  /** Forwards a publisher's interleaved packet to each player, on the channel that player set up. */
  function relay(connection: Connection, frame: Buffer): void {
    const publication = connection.publishing;
    if (!publication?.recording) return;
    const mapping = publication.channels.get(frame[1] ?? -1);
    if (!mapping) return;
    const [track, kind] = mapping;
    for (const player of publication.players) {
      const rtpChannel = player.playing?.channels.get(track);
      if (rtpChannel === undefined) continue;
      if (player.socket.writableLength > MAX_PLAYER_BACKLOG) {
        player.socket.destroy();
        continue;
      }
      const copy = Buffer.from(frame);
      copy[1] = rtpChannel + kind;
      player.socket.write(copy);
    }
  }

  function pathOf(uri: string): string {
    try {
      const pathname = decodeURIComponent(new URL(uri).pathname);
      return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
    } catch {
      return '';
    }
  }

  /** The publication a (SETUP) URI belongs to, and the rest of the URI after the path: the track's control. */
  function findPublication(uri: string): { publication: Publication; control: string } | null {
    const path = pathOf(uri);
    let best: Publication | null = null;
    for (const publication of publications.values()) {
      if (path === publication.path || path.startsWith(`${publication.path}/`)) {
        if (!best || publication.path.length > best.path.length) best = publication;
      }
    }
    if (!best) return null;
    return { publication: best, control: path.slice(best.path.length + 1) };
  }

  function trackIndex(publication: Publication, control: string, uri: string): number {
    const byControl = publication.tracks.findIndex(
      (track) => track.control === control || track.control === uri || uri.endsWith(`/${track.control}`),
    );
    if (byControl >= 0) return byControl;
    return publication.tracks.length === 1 ? 0 : -1;
  }

  function handle(connection: Connection, request: Request): void {
    const cseq = request.headers.get('cseq') ?? '0';
    const reply = (status: string, headers: Record<string, string> = {}, body = ''): void => {
      const lines = [`RTSP/1.0 ${status}`, `CSeq: ${cseq}`, 'Server: homesitter-test-rtsp'];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      connection.socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
    };
    const session = { Session: `${connection.session};timeout=60` };

    switch (request.method) {
      case 'OPTIONS':
        return reply('200 OK', {
          Public: 'OPTIONS, DESCRIBE, ANNOUNCE, SETUP, PLAY, RECORD, TEARDOWN, GET_PARAMETER',
        });

      case 'ANNOUNCE': {
        const path = pathOf(request.uri);
        if (!path || path === '/') return reply('400 Bad Request');
        if (publications.has(path)) return reply('403 Forbidden');
        const sdp = request.body.toString('utf8');
        const tracks = sdp
          .split(/^m=/m)
          .slice(1)
          .map((media, index) => ({
            control: /^a=control:(.+)$/m.exec(media)?.[1]?.trim() ?? `trackID=${index}`,
          }));
        const publication: Publication = {
          path,
          sdp,
          tracks,
          publisher: connection,
          channels: new Map(),
          recording: false,
          players: new Set(),
        };
        publications.set(path, publication);
        connection.publishing = publication;
        return reply('200 OK', session);
      }

      case 'GET_PARAMETER':
      case 'SET_PARAMETER':
        if (!connection.publishing && !authorized(request)) return challenge(reply);
        return reply('200 OK', session);

      case 'TEARDOWN':
        reply('200 OK', session);
        connection.socket.end();
        return;

      case 'RECORD': {
        const publication = connection.publishing;
        if (!publication) return reply('455 Method Not Valid in This State');
        publication.recording = true;
        for (const resolve of waiters.get(publication.path) ?? []) resolve();
        waiters.delete(publication.path);
        return reply('200 OK', session);
      }
    }

    if (!['DESCRIBE', 'SETUP', 'PLAY'].includes(request.method)) return reply('501 Not Implemented');

    // A publisher sets up its own tracks; everything else here is a player's and needs the login.
    if (request.method === 'SETUP' && connection.publishing) {
      const publication = connection.publishing;
      const index = trackIndex(publication, findPublication(request.uri)?.control ?? '', request.uri);
      const transport = request.headers.get('transport') ?? '';
      const interleaved = /interleaved=(\d+)(?:-(\d+))?/.exec(transport);
      if (index < 0) return reply('404 Not Found');
      if (!transport.includes('TCP') || !interleaved) return reply('461 Unsupported Transport');
      const rtp = Number(interleaved[1]);
      const rtcp = interleaved[2] === undefined ? rtp + 1 : Number(interleaved[2]);
      publication.channels.set(rtp, [index, 0]);
      publication.channels.set(rtcp, [index, 1]);
      return reply('200 OK', {
        ...session,
        Transport: `RTP/AVP/TCP;unicast;interleaved=${rtp}-${rtcp};mode=record`,
      });
    }

    if (!authorized(request)) return challenge(reply);

    if (request.method === 'DESCRIBE') {
      const path = pathOf(request.uri);
      const publication = publications.get(path);
      if (!publication?.recording) return reply('404 Not Found');
      const base = `rtsp://${connection.socket.localAddress ?? hosts[0]}:${port()}${path}/`;
      return reply(
        '200 OK',
        { 'Content-Base': base, 'Content-Type': 'application/sdp' },
        publication.sdp.replace(/\r?\n/g, '\r\n'),
      );
    }

    if (request.method === 'SETUP') {
      const found = findPublication(request.uri);
      if (!found?.publication.recording) return reply('404 Not Found');
      const index = trackIndex(found.publication, found.control, request.uri);
      if (index < 0) return reply('404 Not Found');
      const transport = request.headers.get('transport') ?? '';
      // UDP is not offered: ffmpeg and most clients then retry over TCP.
      if (!transport.includes('RTP/AVP/TCP')) return reply('461 Unsupported Transport');
      if (connection.setup && connection.setup.publication !== found.publication) {
        return reply('459 Aggregate Operation Not Allowed');
      }
      connection.setup ??= { publication: found.publication, channels: new Map() };
      const interleaved = /interleaved=(\d+)(?:-(\d+))?/.exec(transport);
      const rtp = interleaved ? Number(interleaved[1]) : index * 2;
      connection.setup.channels.set(index, rtp);
      return reply('200 OK', {
        ...session,
        Transport: `RTP/AVP/TCP;unicast;interleaved=${rtp}-${rtp + 1}`,
      });
    }

    // PLAY
    const setup = connection.setup;
    if (!setup) return reply('455 Method Not Valid in This State');
    if (!publications.has(setup.publication.path)) return reply('404 Not Found');
    connection.playing = setup;
    setup.publication.players.add(connection);
    return reply('200 OK', { ...session, Range: 'npt=0.000-' });
  }

  function authorized(request: Request): boolean {
    const auth = options.auth;
    if (!auth) return true;
    const header = request.headers.get('authorization') ?? '';
    if ((auth.scheme ?? 'digest') === 'basic') {
      const expected = Buffer.from(`${auth.username}:${auth.password}`).toString('base64');
      return header === `Basic ${expected}`;
    }
    if (!header.startsWith('Digest ')) return false;
    const params = new Map<string, string>();
    for (const match of header.slice(7).matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)) {
      params.set(match[1]!.toLowerCase(), match[2] ?? match[3] ?? '');
    }
    const nonce = params.get('nonce') ?? '';
    if (params.get('username') !== auth.username || !nonces.has(nonce)) return false;
    const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
    const ha1 = md5(`${auth.username}:${realm}:${auth.password}`);
    const ha2 = md5(`${request.method}:${params.get('uri') ?? ''}`);
    const qop = params.get('qop');
    const expected = qop
      ? md5(`${ha1}:${nonce}:${params.get('nc') ?? ''}:${params.get('cnonce') ?? ''}:${qop}:${ha2}`)
      : md5(`${ha1}:${nonce}:${ha2}`);
    return params.get('response') === expected;
  }

  function challenge(reply: (status: string, headers?: Record<string, string>) => void): void {
    if ((options.auth?.scheme ?? 'digest') === 'basic') {
      return reply('401 Unauthorized', { 'WWW-Authenticate': `Basic realm="${realm}"` });
    }
    const nonce = randomBytes(16).toString('hex');
    nonces.add(nonce);
    reply('401 Unauthorized', { 'WWW-Authenticate': `Digest realm="${realm}", nonce="${nonce}"` });
  }

  /** A closed publisher ends its path, and its players with it, as a camera's stream would. */
  function forget(connection: Connection): void {
    connection.playing?.publication.players.delete(connection);
    const publication = connection.publishing;
    if (publication && publications.get(publication.path) === publication) {
      publications.delete(publication.path);
      for (const player of publication.players) player.socket.destroy();
    }
  }

  function port(): number {
    return (servers[0]!.address() as AddressInfo).port;
  }

  const servers: Server[] = [];
  const listen = (host: string, listenPort: number) =>
    new Promise<void>((resolve, reject) => {
      const server = createServer(onConnection);
      server.once('error', reject);
      server.listen(listenPort, host, () => {
        servers.push(server);
        resolve();
      });
    });
  const closeServers = () =>
    Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  try {
    await listen(hosts[0]!, options.port ?? 0);
    for (const host of hosts.slice(1)) await listen(host, port());
  } catch (err) {
    await closeServers();
    throw err;
  }

  return {
    port: port(),
    url(path, withLogin = false) {
      const login =
        withLogin && options.auth
          ? `${encodeURIComponent(options.auth.username)}:${encodeURIComponent(options.auth.password)}@`
          : '';
      return `rtsp://${login}${hosts[0]}:${port()}${path.startsWith('/') ? path : `/${path}`}`;
    },
    stats() {
      const players: Record<string, number> = {};
      for (const publication of publications.values()) players[publication.path] = publication.players.size;
      return {
        publishers: [...publications.values()].filter((p) => p.recording).map((p) => p.path),
        players,
      };
    },
    waitForPublisher(path) {
      if (publications.get(path)?.recording) return Promise.resolve();
      return new Promise((resolve) => {
        waiters.set(path, [...(waiters.get(path) ?? []), resolve]);
      });
    },
    dropPlayers(path) {
      for (const connection of connections) {
        if (connection.publishing) continue;
        const playing = connection.playing?.publication.path ?? connection.setup?.publication.path;
        if (path === undefined || playing === path) connection.socket.destroy();
      }
    },
    async close() {
      for (const connection of connections) connection.socket.destroy();
      await closeServers();
    },
  };
}
