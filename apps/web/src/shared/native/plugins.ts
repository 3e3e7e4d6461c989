/**
 * The one adapter that imports the Capacitor plugins. It is loaded only inside the native apps (a dynamic
 * import from `index.ts`), so the web bundle never carries them; the rest of the bridge takes the slices
 * it needs (`types.ts` and each module's plugin interface) and tests pass fakes.
 */
import { App } from '@capacitor/app';
import { registerPlugin } from '@capacitor/core';
import { Filesystem, type Directory } from '@capacitor/filesystem';
import { PushNotifications } from '@capacitor/push-notifications';
import { Share } from '@capacitor/share';
import { StatusBar, type Style } from '@capacitor/status-bar';
import { Media } from '@capacitor-community/media';
import { VideoPlayer } from '@capgo/capacitor-video-player';
import type { BackButtonPlugin } from './backButton';
import type { LanDiscoveryPlugin } from './lanDiscovery';
import type { AppUrlPlugin } from './deepLink';
import type { FilesystemPlugin, MediaPlugin, SharePlugin } from './media';
import type { VideoPlayerPlugin } from './player';
import type { PushPlugin } from './push';
import type { AppStatePlugin, StatusBarPlugin } from './statusBar';

export const app = App as unknown as BackButtonPlugin & AppUrlPlugin & AppStatePlugin;
// The plugins' listener overloads are narrower than one interface for all events; the calls match them.
export const push = PushNotifications as unknown as PushPlugin;

export const statusBar: StatusBarPlugin = {
  setOverlaysWebView: (options) => StatusBar.setOverlaysWebView(options),
  setStyle: ({ style }) => StatusBar.setStyle({ style: style as Style }),
};

export const videoPlayer: VideoPlayerPlugin = {
  initPlayer: (options) => VideoPlayer.initPlayer(options),
};

export const filesystem: FilesystemPlugin = {
  downloadFile: ({ directory, ...rest }) =>
    Filesystem.downloadFile({ ...rest, directory: directory as Directory }),
  getUri: ({ directory, ...rest }) => Filesystem.getUri({ ...rest, directory: directory as Directory }),
  deleteFile: ({ directory, ...rest }) =>
    Filesystem.deleteFile({ ...rest, directory: directory as Directory }),
};

export const share: SharePlugin = { share: (options) => Share.share(options) };

export const media: MediaPlugin = {
  saveVideo: (options) => Media.saveVideo(options),
  getAlbums: () => Media.getAlbums(),
  createAlbum: (options) => Media.createAlbum(options),
};

/** The project's own plugin (plugins/lan-discovery): the phone's camera transport. */
export const lanDiscovery = registerPlugin<LanDiscoveryPlugin>('LanDiscovery');
