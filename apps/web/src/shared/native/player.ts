import { serverBase } from '../lib/apiOrigin';

/** Which player shows a camera stream or clip: the phone's own (HLS, native) or the web app's. */
export type PlayerKind = 'native' | 'web';

/**
 * docs/product.md §1: the native apps play camera streams in a native player. It takes HLS (and plain files), so the
 * native player is chosen inside the app whenever there is something it can play; the browser keeps the
 * web players (MSE, hls.js, the video element).
 */
export function choosePlayer(native: boolean, url: string | null | undefined): PlayerKind {
  return native && !!url ? 'native' : 'web';
}

/** The slice of `@capgo/capacitor-video-player` used here. */
export interface VideoPlayerPlugin {
  initPlayer(options: {
    mode: 'fullscreen';
    url: string;
    playerId: string;
    componentTag: string;
    title?: string;
    exitOnEnd?: boolean;
    loopOnEnd?: boolean;
    showControls?: boolean;
    pipEnabled?: boolean;
    bkmodeEnabled?: boolean;
  }): Promise<{ result?: boolean; method?: string; message?: string }>;
}

export const NATIVE_PLAYER_ID = 'homesitter-player';

/** An address the native player can open: relative paths (`/api/live/…`) are made absolute on the server. */
export function absoluteMediaUrl(url: string, base: string = serverBase()): string {
  return new URL(url, base).toString();
}

/**
 * Opens the native fullscreen player. A live stream does not end by itself; a clip closes the player at its
 * end. Resolves to whether the player opened.
 */
export async function playNative(
  plugin: VideoPlayerPlugin,
  video: { url: string; title?: string; live?: boolean },
): Promise<boolean> {
  const answer = await plugin.initPlayer({
    mode: 'fullscreen',
    url: absoluteMediaUrl(video.url),
    playerId: NATIVE_PLAYER_ID,
    componentTag: 'div',
    ...(video.title ? { title: video.title } : {}),
    exitOnEnd: !video.live,
    loopOnEnd: false,
    showControls: true,
    pipEnabled: true,
    bkmodeEnabled: false,
  });
  if (answer.result === false) {
    console.warn('native player did not open', answer.message);
    return false;
  }
  return true;
}
