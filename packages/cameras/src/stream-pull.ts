import { createEmitter } from './emitter.js';
import { createMp4Reader, type InitSegment, type Mp4Reader } from './mp4.js';
import {
  createSupervisedProcess,
  maskSecrets,
  type BackoffOptions,
  type SupervisedProcess,
} from './supervised-process.js';
import type { CameraLogger, Fragment, StreamAddress, StreamStatus } from './types.js';

/**
 * Pulls a camera's main stream with one ffmpeg and turns it into fMP4 fragments: H.264 copied (never
 * re-encoded), audio copied when it is AAC and transcoded to AAC mono when the browser could not play it,
 * one fragment per frame so a live viewer waits for nothing.
 */

/** `tcp` (default: works through NAT and loses nothing), `udp`, or `auto` (TCP first, UDP when refused). */
export type RtspTransport = 'tcp' | 'udp' | 'auto';

export interface StreamPullOptions {
  ffmpegPath: string;
  /** The camera's stream; not needed when `inputArgs` says what to read. */
  address?: StreamAddress;
  /** ffprobe's name of the audio codec (`aac`, `pcm_mulaw`…), null when the stream has none (default). */
  audioCodec?: string | null;
  transport?: RtspTransport;
  /** Replaces the input part of the command (everything up to and including `-i …`): tests, files. */
  inputArgs?: string[];
  log: CameraLogger;
  /** Names the stream in log lines. */
  name?: string;
  stallMs?: number;
  backoff?: BackoffOptions;
}

export interface StreamPullEvents {
  /** A new init segment: after every (re)connect, before its fragments. */
  init: (init: InitSegment) => void;
  fragment: (fragment: Fragment) => void;
  status: (status: StreamStatus, reason?: string) => void;
}

export interface StreamPull {
  start(): void;
  /** Kills ffmpeg; resolves once it has exited. */
  stop(): Promise<void>;
  status(): StreamStatus;
  /** The current run's init segment, once it arrived. */
  init(): InitSegment | undefined;
  on<K extends keyof StreamPullEvents>(event: K, listener: StreamPullEvents[K]): () => void;
}

/** The URL ffmpeg connects to: the login injected, URL-encoded, into the authority. */
export function streamUrl(address: StreamAddress): string {
  const { url, username, password } = address;
  if (!username) return url;
  const match = /^([a-z][a-z0-9+.-]*:\/\/)(?:[^/@]*@)?(.*)$/i.exec(url);
  if (!match) return url;
  const login = encodeURIComponent(username) + (password ? `:${encodeURIComponent(password)}` : '');
  return `${match[1]}${login}@${match[2]}`;
}

/** ffmpeg's input arguments for a camera stream, tuned to start fast and buffer nothing. */
export function rtspInputArgs(address: StreamAddress, transport: RtspTransport = 'tcp'): string[] {
  const url = streamUrl(address);
  const rtsp = /^rtsps?:\/\//i.test(url);
  const transportArgs = !rtsp
    ? []
    : transport === 'auto'
      ? ['-rtsp_flags', 'prefer_tcp']
      : ['-rtsp_transport', transport];
  return [...transportArgs, '-fflags', 'nobuffer', '-flags', 'low_delay', '-i', url];
}

export function audioArgs(audioCodec: string | null | undefined): string[] {
  if (!audioCodec) return ['-an'];
  if (audioCodec === 'aac') return ['-map', '0:a:0?', '-c:a', 'copy'];
  return ['-map', '0:a:0?', '-c:a', 'aac', '-ac', '1', '-b:a', '64k'];
}

export function createStreamPull(options: StreamPullOptions): StreamPull {
  const { address, log } = options;
  if (!address && !options.inputArgs) throw new Error('createStreamPull needs an address or inputArgs');
  const emitter = createEmitter<StreamPullEvents>((err) =>
    log.error({ err: String(err) }, 'a camera stream listener failed'),
  );
  const mask = (text: string): string => maskSecrets(text, [address?.password, address?.username]);
  let reader: Mp4Reader = createMp4Reader();
  let init: InitSegment | undefined;

  const args = (): string[] => [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    ...(options.inputArgs ?? rtspInputArgs(address!, options.transport)),
    '-map',
    '0:v:0',
    '-c:v',
    'copy',
    ...audioArgs(options.audioCodec),
    '-f',
    'mp4',
    '-movflags',
    'frag_keyframe+empty_moov+default_base_moof+frag_every_frame',
    // Without it the muxer holds fragments back until its 32 KB buffer fills.
    '-flush_packets',
    '1',
    'pipe:1',
  ];

  const proc: SupervisedProcess = createSupervisedProcess({
    name: options.name ?? 'main stream',
    command: options.ffmpegPath,
    args,
    log,
    mask,
    ...(options.stallMs !== undefined && { stallMs: options.stallMs }),
    ...(options.backoff && { backoff: options.backoff }),
    onSpawn() {
      reader = createMp4Reader();
      init = undefined;
    },
    onStdout(chunk) {
      for (const event of reader.push(chunk)) {
        if (event.type === 'init') {
          init = event.init;
          emitter.emit('init', event.init);
        } else {
          proc.markStreaming();
          emitter.emit('fragment', event.fragment);
        }
      }
    },
    onStatus: (status, reason) => emitter.emit('status', status, reason),
  });

  return {
    start: () => proc.start(),
    stop: () => proc.stop(),
    status: () => proc.status(),
    init: () => init,
    on: (event, listener) => emitter.on(event, listener),
  };
}
