import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultFfmpegPath, defaultFfprobePath } from './ffmpeg-path.js';
import {
  classifyFfmpegFailure,
  grabFrame,
  jpegSize,
  parseProbeOutput,
  probeRtsp,
  redactLogin,
  rtspSocketTimeoutOption,
  urlWithLogin,
} from './rtsp-probe.js';
import { CameraConfigurationError } from './types.js';
import { closedPort, configurationFailure } from './test-support.js';

const ffprobePath = defaultFfprobePath();
const ffmpegPath = defaultFfmpegPath();
const PASSWORD = 's3cr@t:/#pw';
const ENCODED = encodeURIComponent(PASSWORD);

/** stderr of the packaged ffprobe (FFmpeg 6) and ffmpeg (4.x) against real failures, passwords included. */
const samples = {
  unauthorized: [
    '[rtsp @ 0x20c8f2c0] method DESCRIBE failed: 401 Unauthorized',
    `rtsp://admin:${ENCODED}@127.0.0.1:18551/stream1: Server returned 401 Unauthorized (authorization failed)`,
  ].join('\n'),
  forbidden: [
    '[rtsp @ 0xbfe12c0] method DESCRIBE failed: 403 Forbidden',
    `rtsp://admin:${ENCODED}@127.0.0.1:18553/stream1: Server returned 403 Forbidden (access denied)`,
  ].join('\n'),
  notFound: [
    '[rtsp @ 0x383052c0] method DESCRIBE failed: 404 Not Found',
    `rtsp://admin:${ENCODED}@127.0.0.1:18552/stream1: Server returned 404 Not Found`,
  ].join('\n'),
  serverError: [
    '[rtsp @ 0x385de2c0] method DESCRIBE failed: 500 Internal Server Error',
    `rtsp://admin:${ENCODED}@127.0.0.1:18554/stream1: Server returned 5XX Server Error reply`,
  ].join('\n'),
  sessionNotFound: [
    '[rtsp @ 0x5c692c0] method DESCRIBE failed: 454 Session Not Found',
    `rtsp://admin:${ENCODED}@127.0.0.1:18556/stream1: Server returned 4XX Client Error, but not one of 40{0,1,3,4}`,
  ].join('\n'),
  unsupportedTransport: [
    '[rtsp @ 0x39eea2c0] method SETUP failed: 461 Unsupported Transport',
    `rtsp://admin:${ENCODED}@127.0.0.1:18555/stream1: Protocol not supported`,
  ].join('\n'),
  notRtsp: `rtsp://admin:${ENCODED}@127.0.0.1:18557/stream1: Invalid data found when processing input`,
  refused: [
    '[tcp @ 0x15ea3180] Connection to tcp://127.0.0.1:1?timeout=3000000 failed: Connection refused',
    `rtsp://admin:${ENCODED}@127.0.0.1:1/x: Connection refused`,
    '{',
    '',
    '}',
  ].join('\n'),
  noRoute: [
    '[tcp @ 0x3c278180] Connection to tcp://192.168.1.99:554?timeout=3000000 failed: No route to host',
    `rtsp://admin:${ENCODED}@192.168.1.99:554/x: No route to host`,
  ].join('\n'),
  networkUnreachable: `rtsp://admin:${ENCODED}@10.9.9.9:554/x: Network is unreachable`,
  connectTimeout: [
    '[tcp @ 0x3c278180] Connection to tcp://192.168.1.99:554?timeout=3000000 failed: Connection timed out',
    `rtsp://admin:${ENCODED}@192.168.1.99:554/x: Connection timed out`,
  ].join('\n'),
  reset: `rtsp://admin:${ENCODED}@127.0.0.1:554/x: Connection reset by peer`,
  noVideoToGrab: "Stream map '0:v:0' matches no streams.\nTo ignore this, add a trailing '?' to the map.",
  noDecoder: 'Decoder (codec hevc) not found for input stream #0:0',
} as const;

describe('classifyFfmpegFailure', () => {
  it.each([
    ['unauthorized', 'wrong_credentials'],
    ['forbidden', 'wrong_credentials'],
    ['notFound', 'unreachable'],
    ['serverError', 'invalid_response'],
    ['sessionNotFound', 'invalid_response'],
    ['unsupportedTransport', 'no_supported_stream'],
    ['notRtsp', 'invalid_response'],
    ['refused', 'unreachable'],
    ['noRoute', 'unreachable'],
    ['networkUnreachable', 'unreachable'],
    ['connectTimeout', 'timed_out'],
    ['reset', 'unreachable'],
    ['noVideoToGrab', 'no_supported_stream'],
    ['noDecoder', 'no_supported_stream'],
  ] as const)('reads %s as %s', (sample, code) => {
    expect(classifyFfmpegFailure(samples[sample], { password: PASSWORD }).code).toBe(code);
  });

  it('answers invalid_response for an empty or unknown stderr', () => {
    expect(classifyFfmpegFailure('').code).toBe('invalid_response');
    expect(classifyFfmpegFailure('something new went wrong').code).toBe('invalid_response');
  });

  it('does not take a port number 401 for an answer', () => {
    const stderr = 'rtsp://127.0.0.1:401/x: Connection refused';
    expect(classifyFfmpegFailure(stderr).code).toBe('unreachable');
  });

  it("keeps ffmpeg's last line for the log, without the login", () => {
    for (const stderr of Object.values(samples)) {
      const err = classifyFfmpegFailure(stderr, { password: PASSWORD });
      expect(err.message).not.toContain(PASSWORD);
      expect(err.message).not.toContain(ENCODED);
      expect(err.message).not.toContain('admin:');
    }
    expect(classifyFfmpegFailure(samples.unauthorized, { password: PASSWORD }).message).toBe(
      'wrong_credentials: rtsp://127.0.0.1:18551/stream1: Server returned 401 Unauthorized (authorization failed)',
    );
  });
});

describe('urlWithLogin and redactLogin', () => {
  it('puts a percent-encoded login into the URL, replacing one already there', () => {
    expect(
      urlWithLogin({ url: 'rtsp://127.0.0.1:8554/main?channel=1', username: 'ad min', password: PASSWORD }),
    ).toBe(`rtsp://ad%20min:${ENCODED}@127.0.0.1:8554/main?channel=1`);
    expect(urlWithLogin({ url: 'rtsp://old:pw@[fd00::20]/main', username: 'admin', password: 'x' })).toBe(
      'rtsp://admin:x@[fd00::20]/main',
    );
    expect(urlWithLogin({ url: 'rtsp://old:pw@192.168.1.20/main' })).toBe('rtsp://192.168.1.20/main');
  });

  it('removes logins from URLs and the password from anywhere in the text', () => {
    const text = `rtsp://admin:${ENCODED}@10.0.0.2/x failed; said ${PASSWORD} and http://u:p@h/`;
    expect(redactLogin(text, { password: PASSWORD })).toBe(
      'rtsp://10.0.0.2/x failed; said *** and http://h/',
    );
  });
});

describe('parseProbeOutput', () => {
  it('reads the video and the audio codec', () => {
    const json = JSON.stringify({
      streams: [
        { index: 0, codec_name: 'aac', codec_type: 'audio' },
        { index: 1, codec_name: 'h264', codec_type: 'video', width: 1280, height: 720 },
      ],
    });
    expect(parseProbeOutput(json)).toEqual({
      video: { codec: 'h264', width: 1280, height: 720 },
      audioCodec: 'aac',
    });
  });

  it('prefers an H.264 track when a stream has several videos', () => {
    const json = JSON.stringify({
      streams: [
        { codec_name: 'mjpeg', codec_type: 'video', width: 640, height: 480 },
        { codec_name: 'h264', codec_type: 'video', width: 1920, height: 1080 },
      ],
    });
    expect(parseProbeOutput(json).video).toEqual({ codec: 'h264', width: 1920, height: 1080 });
  });

  it('answers a non-H.264 video as it is, and null without video', () => {
    const hevc = JSON.stringify({
      streams: [{ codec_name: 'hevc', codec_type: 'video', width: 2560, height: 1440 }],
    });
    expect(parseProbeOutput(hevc).video?.codec).toBe('hevc');
    const audioOnly = JSON.stringify({ streams: [{ codec_name: 'pcm_mulaw', codec_type: 'audio' }] });
    expect(parseProbeOutput(audioOnly)).toEqual({ video: null, audioCodec: 'pcm_mulaw' });
    expect(parseProbeOutput('{\n\n}')).toEqual({ video: null, audioCodec: null });
  });

  it('refuses output that is not JSON', () => {
    expect(() => parseProbeOutput('not json')).toThrow(CameraConfigurationError);
  });
});

describe('jpegSize', () => {
  it('reads the size from the start-of-frame segment, after other segments', () => {
    const app0 = [0xff, 0xe0, 0x00, 0x04, 0x00, 0x00];
    const dht = [0xff, 0xc4, 0x00, 0x04, 0x00, 0x00];
    const sof2 = [0xff, 0xc2, 0x00, 0x0b, 0x08, 0x01, 0xb0, 0x03, 0x00, 0x01, 0x01, 0x11, 0x00];
    const jpeg = Buffer.from([0xff, 0xd8, ...app0, ...dht, ...sof2, 0xff, 0xd9]);
    expect(jpegSize(jpeg)).toEqual({ width: 768, height: 432 });
  });

  it('answers null for something that is not a JPEG', () => {
    expect(jpegSize(Buffer.from('not a jpeg at all, really'))).toBeNull();
    expect(jpegSize(Buffer.alloc(0))).toBeNull();
  });
});

describe('rtspSocketTimeoutOption', () => {
  it('asks each build which option bounds socket I/O', async () => {
    // The packaged ffprobe is FFmpeg 6 (`-timeout` in µs); the packaged ffmpeg is 4.x (`-stimeout`).
    expect(await rtspSocketTimeoutOption(ffprobePath)).toBe('-timeout');
    expect(await rtspSocketTimeoutOption(ffmpegPath)).toBe('-stimeout');
  });
});

// ---- against real processes and a scripted RTSP peer on 127.0.0.1 ----

interface ScriptedPeer {
  port: number;
  requests: string[];
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.emit('closeAll');
        }),
    ),
  );
});

type PeerAnswer = string | { status: string; headers?: string[]; body?: string } | null;

/**
 * A TCP peer that answers each RTSP request with `answer(method)`: a status (`401 Unauthorized`), a status
 * with headers and body, raw text to send before closing (`raw:`), or null to stay silent.
 */
async function scriptedPeer(answer: (method: string) => PeerAnswer): Promise<ScriptedPeer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (data: Buffer) => {
      buffered += data.toString('latin1');
      let end: number;
      while ((end = buffered.indexOf('\r\n\r\n')) !== -1) {
        const request = buffered.slice(0, end);
        buffered = buffered.slice(end + 4);
        requests.push(request);
        const method = request.split(' ')[0] ?? '';
        const cseq = /^CSeq:\s*(\d+)/im.exec(request)?.[1] ?? '0';
        const reply = method === 'OPTIONS' ? '200 OK' : answer(method);
        if (reply === null) continue;
        if (typeof reply === 'string' && reply.startsWith('raw:')) {
          socket.end(reply.slice(4));
          continue;
        }
        const { status, headers = [], body = '' } = typeof reply === 'string' ? { status: reply } : reply;
        if (status.startsWith('401')) headers.push('WWW-Authenticate: Digest realm="cam", nonce="n1"');
        if (body) headers.push(`Content-Length: ${Buffer.byteLength(body)}`);
        socket.write([`RTSP/1.0 ${status}`, `CSeq: ${cseq}`, ...headers, '', body].join('\r\n'));
      }
    });
  });
  server.on('closeAll', () => sockets.forEach((s) => s.destroy()));
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, requests };
}

/** A peer that describes one H.264 track and refuses the transport of every SETUP. */
async function tcpRefusingPeer(): Promise<ScriptedPeer> {
  const sdp = [
    'v=0',
    'o=- 0 0 IN IP4 127.0.0.1',
    's=cam',
    'c=IN IP4 0.0.0.0',
    't=0 0',
    'm=video 0 RTP/AVP 96',
    'a=rtpmap:96 H264/90000',
    'a=control:track1',
    '',
  ].join('\r\n');
  return scriptedPeer((method) => {
    if (method === 'DESCRIBE')
      return { status: '200 OK', headers: ['Content-Type: application/sdp'], body: sdp };
    if (method === 'SETUP') return '461 Unsupported Transport';
    return '405 Method Not Allowed';
  });
}

describe('probeRtsp and grabFrame against a peer', () => {
  const login = { username: 'admin', password: PASSWORD };

  it('answers wrong_credentials when the camera refuses the login, after trying it (Digest)', async () => {
    const peer = await scriptedPeer(() => '401 Unauthorized');
    const url = `rtsp://127.0.0.1:${peer.port}/main`;
    const err = await configurationFailure(probeRtsp({ url, ...login }, { ffprobePath, timeoutMs: 20_000 }));
    expect(err.code).toBe('wrong_credentials');
    expect(err.message).not.toContain(PASSWORD);
    expect(err.message).not.toContain(ENCODED);
    expect(peer.requests.some((r) => /Authorization: Digest username="admin"/.test(r))).toBe(true);
    expect(
      (await configurationFailure(grabFrame({ url, ...login }, { ffmpegPath, timeoutMs: 20_000 }))).code,
    ).toBe('wrong_credentials');
  });

  it('answers unreachable for a stream path the camera does not have (404)', async () => {
    const peer = await scriptedPeer(() => '404 Not Found');
    const err = await configurationFailure(
      probeRtsp({ url: `rtsp://127.0.0.1:${peer.port}/typo`, ...login }, { ffprobePath, timeoutMs: 20_000 }),
    );
    expect(err.code).toBe('unreachable');
  });

  it('answers unreachable when nothing listens', async () => {
    const url = `rtsp://127.0.0.1:${await closedPort()}/main`;
    expect(
      (await configurationFailure(probeRtsp({ url, ...login }, { ffprobePath, timeoutMs: 20_000 }))).code,
    ).toBe('unreachable');
    expect(
      (await configurationFailure(grabFrame({ url, ...login }, { ffmpegPath, timeoutMs: 20_000 }))).code,
    ).toBe('unreachable');
  });

  it('answers invalid_response when the peer does not speak RTSP', async () => {
    const peer = await scriptedPeer(() => 'raw:HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi');
    const err = await configurationFailure(
      probeRtsp({ url: `rtsp://127.0.0.1:${peer.port}/main` }, { ffprobePath, timeoutMs: 20_000 }),
    );
    expect(err.code).toBe('invalid_response');
  });

  it('answers timed_out and stops ffprobe when the peer never answers', async () => {
    const peer = await scriptedPeer(() => null);
    const err = await configurationFailure(
      probeRtsp({ url: `rtsp://127.0.0.1:${peer.port}/main`, ...login }, { ffprobePath, timeoutMs: 1_500 }),
    );
    expect(err.code).toBe('timed_out');
    expect(err.message).not.toContain(PASSWORD);
  });

  it("stops when the caller's signal aborts, with the signal's reason", async () => {
    const peer = await scriptedPeer(() => null);
    const controller = new AbortController();
    const reason = new CameraConfigurationError('timed_out', 'deadline');
    const probing = probeRtsp(
      { url: `rtsp://127.0.0.1:${peer.port}/main` },
      { ffprobePath, timeoutMs: 60_000, signal: controller.signal },
    );
    while (peer.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    controller.abort(reason);
    expect(await configurationFailure(probing)).toBe(reason);
  });

  it('tries UDP only when the camera refuses TCP, and answers no_supported_stream when both fail', async () => {
    const peer = await tcpRefusingPeer();
    const err = await configurationFailure(
      probeRtsp({ url: `rtsp://127.0.0.1:${peer.port}/main` }, { ffprobePath, timeoutMs: 20_000 }),
    );
    expect(err.code).toBe('no_supported_stream');
    const setups = peer.requests.filter((r) => r.startsWith('SETUP'));
    expect(setups.some((r) => /Transport: RTP\/AVP\/TCP/.test(r))).toBe(true);
    expect(setups.some((r) => /Transport: RTP\/AVP(\/UDP)?;unicast/.test(r))).toBe(true);
  });

  it('does not fall back to UDP for other failures', async () => {
    const peer = await scriptedPeer(() => '401 Unauthorized');
    await configurationFailure(
      probeRtsp({ url: `rtsp://127.0.0.1:${peer.port}/main` }, { ffprobePath, timeoutMs: 20_000 }),
    );
    expect(peer.requests.filter((r) => r.startsWith('DESCRIBE')).length).toBeLessThanOrEqual(2);
    expect(peer.requests.filter((r) => r.startsWith('OPTIONS')).length).toBe(1);
  });

  it('reports a missing binary as a server fault, not a camera failure', async () => {
    const err = await probeRtsp(
      { url: 'rtsp://127.0.0.1:1/main' },
      { ffprobePath: '/nonexistent/ffprobe', timeoutMs: 5_000 },
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(CameraConfigurationError);
  });
});
