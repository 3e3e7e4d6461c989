import { addressWithoutLogin, type ConfiguredCamera, type VideoInfo } from '@homesitter/cameras';
import type { HelperCameraDetails, HelperVideoInfo } from '@homesitter/contract';

export function videoInfo(video: VideoInfo): HelperVideoInfo {
  // ffprobe's frame rate is not kept by configuration; the camera test and the server show none.
  return { codec: video.codec, width: video.width, height: video.height, fps: null };
}

/** What the server shows of a bridged camera: its address without any login, never its password. */
export function cameraDetails(camera: ConfiguredCamera): HelperCameraDetails {
  return {
    address: addressWithoutLogin(camera.main.url),
    device: camera.device,
    motion_source: camera.motionSource,
    video: videoInfo(camera.main.video),
    audio_codec: camera.main.audioCodec,
  };
}
