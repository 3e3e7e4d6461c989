import type { CapacitorConfig } from '@capacitor/cli';

/**
 * The native shell (docs/mobile.md): the iOS and Android apps around the web app.
 *
 * The apps show the web app bundled into them by `npm run mobile:sync` (`webDir`), served by Capacitor from
 * `https://localhost` (Android) and `capacitor://localhost` (iOS). That build has the server's address baked
 * in (`HOMESITTER_SERVER_URL`, passed to the web app as `VITE_SERVER_URL`; src/shared/lib/apiOrigin.ts), and
 * the server allows those two origins by CORS (`NATIVE_APP_ORIGINS`).
 *
 * `HOMESITTER_SERVER_URL` matters here only when it is plain `http://` (a test server on the LAN): Android
 * then allows cleartext traffic and mixed content (an https://localhost page calling an http server). An
 * https server needs neither.
 *
 * `HOMESITTER_LIVE_RELOAD_URL` is for development only: the app then loads the web app from that address
 * (Capacitor's `server.url`, e.g. the Vite dev server `http://192.168.1.20:5173`) instead of the bundle, so
 * changes show up at once. Never set it for a release build: store builds must run the bundled app.
 *
 * The custom URL scheme `homesitter://` (deep link `homesitter://saveImage?imageUrl=…`) is registered in
 * android/app/src/main/AndroidManifest.xml and ios/App/App/Info.plist.
 */
const serverUrl = process.env.HOMESITTER_SERVER_URL?.trim() || undefined;
const liveReloadUrl = process.env.HOMESITTER_LIVE_RELOAD_URL?.trim() || undefined;
const cleartext = [serverUrl, liveReloadUrl].some((url) => url?.startsWith('http:'));

const config: CapacitorConfig = {
  appId: 'app.homesitter',
  appName: 'Homesitter',
  // Written by `npm run mobile:sync` (scripts/mobile-sync.mjs); apart from the server's own `dist`, so the
  // web app the server serves never carries a phone build's server address.
  webDir: 'dist-native',
  server: {
    androidScheme: 'https',
    iosScheme: 'capacitor',
    hostname: 'localhost',
    ...(liveReloadUrl ? { url: liveReloadUrl } : {}),
    ...(cleartext ? { cleartext: true } : {}),
  },
  ...(cleartext ? { android: { allowMixedContent: true } } : {}),
  plugins: {
    // A push that arrives while the app is open is shown as a toast by the app, not as a system banner.
    PushNotifications: { presentationOptions: [] },
    // Android: the web view still shrinks for the keyboard while it draws under the status bar.
    Keyboard: { resizeOnFullScreen: true },
    StatusBar: { overlaysWebView: true, style: 'DARK' },
  },
};

export default config;
