import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

type FullscreenDocument = Document & {
  webkitFullscreenElement?: Element | null;
  webkitExitFullscreen?: () => Promise<void> | void;
};
type FullscreenElement = HTMLElement & { webkitRequestFullscreen?: () => Promise<void> | void };
/** iPhone Safari: only the video itself goes fullscreen, through its own player. */
type IosVideo = HTMLVideoElement & { webkitEnterFullscreen?: () => void };

function fullscreenElement(): Element | null {
  const doc = document as FullscreenDocument;
  return doc.fullscreenElement ?? doc.webkitFullscreenElement ?? null;
}

/** Leaves the browser's fullscreen, if the page is in it. */
export async function exitFullscreen(): Promise<void> {
  if (!fullscreenElement()) return;
  const doc = document as FullscreenDocument;
  try {
    if (doc.exitFullscreen) await doc.exitFullscreen();
    else await doc.webkitExitFullscreen?.();
  } catch {
    // Already left (Esc pressed meanwhile).
  }
}

/** Asks the browser to show `element` fullscreen; false when it cannot or refuses. */
export async function enterFullscreen(
  element: HTMLElement,
  video?: HTMLVideoElement | null,
): Promise<boolean> {
  const target: FullscreenElement = element;
  const iosVideo: IosVideo | null | undefined = video;
  try {
    if (target.requestFullscreen) await target.requestFullscreen();
    else if (target.webkitRequestFullscreen) await target.webkitRequestFullscreen();
    else if (iosVideo?.webkitEnterFullscreen) iosVideo.webkitEnterFullscreen();
    else return false;
    return true;
  } catch {
    return false;
  }
}

/**
 * The real Fullscreen API for one element (the player's frame): whether it is fullscreen now, and a toggle.
 * Esc leaves it the browser's way; `onExit` hears about every way out.
 */
export function useFullscreen(
  containerRef: RefObject<HTMLElement | null>,
  videoRef?: RefObject<HTMLVideoElement | null>,
  onExit?: () => void,
) {
  const [active, setActive] = useState(false);
  const exitHandler = useRef(onExit);
  useEffect(() => {
    exitHandler.current = onExit;
  });
  useEffect(() => {
    const notifyExit = () => exitHandler.current?.();
    let was = false;
    const update = () => {
      const now = fullscreenElement() !== null && fullscreenElement() === containerRef.current;
      setActive(now);
      if (was && !now) notifyExit();
      was = now;
    };
    const element = containerRef.current;
    const video = videoRef?.current;
    const iosBegin = () => {
      was = true;
      setActive(true);
    };
    const iosEnd = () => {
      was = false;
      setActive(false);
      notifyExit();
    };
    document.addEventListener('fullscreenchange', update);
    document.addEventListener('webkitfullscreenchange', update);
    video?.addEventListener('webkitbeginfullscreen', iosBegin);
    video?.addEventListener('webkitendfullscreen', iosEnd);
    return () => {
      document.removeEventListener('fullscreenchange', update);
      document.removeEventListener('webkitfullscreenchange', update);
      video?.removeEventListener('webkitbeginfullscreen', iosBegin);
      video?.removeEventListener('webkitendfullscreen', iosEnd);
      // Leaving the screen while fullscreen: the browser's fullscreen ends with it.
      if (element && fullscreenElement() === element) void exitFullscreen();
    };
  }, [containerRef, videoRef]);

  const toggle = useCallback(() => {
    if (active) void exitFullscreen();
    else if (containerRef.current) void enterFullscreen(containerRef.current, videoRef?.current);
  }, [active, containerRef, videoRef]);

  return { active, toggle };
}
