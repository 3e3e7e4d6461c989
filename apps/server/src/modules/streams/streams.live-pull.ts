import {
  createFragmentBuffer,
  createHls,
  createLiveHub,
  createStreamPull,
  type StreamAddress,
  type StreamPull,
  type StreamStatus,
} from '@homesitter/cameras';
import type { Logger } from '../../platform/logger.js';
import type { LivePipe } from './streams.pipe.js';

export interface LivePullOptions {
  ffmpegPath: string;
  log: Logger;
}

/**
 * A live-only pull for a camera watched on demand (a Nest camera, whose stream costs quota and lives only
 * while someone watches): the same ffmpeg pull, fragment buffer, live hub and HLS a stream camera's pipe
 * has, without motion, clips or snapshots. Its live side exists from the start, so a viewer who joins before
 * the first frame waits for the init segment; `play` may switch the address (a stream generated again) while
 * viewers stay joined: they get the new stream's init segment, as after a reconnect of the upstream.
 */
export function createLivePull(options: LivePullOptions) {
  const buffer = createFragmentBuffer({ keepMs: 0 });
  const hub = createLiveHub({ buffer });
  const hls = createHls();
  let pull: StreamPull | undefined;
  /** The address the running pull reads at each (re)connect of its ffmpeg. */
  let address: StreamAddress | undefined;
  let offs: (() => void)[] = [];
  let stopped = false;

  async function endPull(): Promise<void> {
    const current = pull;
    pull = undefined;
    offs.forEach((off) => off());
    offs = [];
    await current?.stop();
  }

  const live: LivePipe = {
    join: (viewer) => hub.join(viewer),
    mimeType: () => buffer.init()?.mimeType ?? null,
    hls: {
      playlist: (query) => hls.playlist(query),
      init: (map) => hls.init(map),
      segment: (sequence) => hls.segment(sequence),
    },
  };

  return {
    live,
    /** Pulls `address` from now on (the first call starts the pull, a later one switches it). */
    async play(to: StreamAddress): Promise<void> {
      if (stopped) return;
      await endPull();
      if (stopped) return;
      address = { ...to };
      const next = createStreamPull({ ffmpegPath: options.ffmpegPath, address, log: options.log });
      offs = [
        next.on('init', (init) => {
          buffer.reset(init);
          hls.reset(init);
          hub.onInit();
        }),
        next.on('fragment', (fragment) => {
          buffer.push(fragment);
          hub.onFragment(fragment);
          hls.push(fragment);
        }),
        next.on('status', (status) => hub.onStatus(status)),
      ];
      pull = next;
      next.start();
    },
    /**
     * The same stream under a renewed address (an extended Nest stream's new token): the running connection
     * goes on, and a reconnect uses the new address (ffmpeg's arguments are made from it at each start).
     */
    renew(to: StreamAddress): void {
      if (address) Object.assign(address, to);
    },
    status: (): StreamStatus => pull?.status() ?? 'connecting',
    viewers: () => hub.viewers(),
    /** Ends the pull (ffmpeg exits) and closes every viewer. */
    async stop(): Promise<void> {
      stopped = true;
      await endPull();
      hub.close();
    },
  };
}
export type LivePull = ReturnType<typeof createLivePull>;
