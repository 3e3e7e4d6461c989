import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CapacitorConfig } from '@capacitor/cli';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// The native projects (android/, ios/) and `npm run mobile:sync` (vite build into dist-native with the
// server's address, then `cap sync`). A native
// build needs Android Studio / Xcode (docs/mobile.md); what CI can prove is that the Capacitor CLI syncs
// the committed projects: the web assets, the config and every plugin land in both. It runs on a copy, so
// the working tree's synced assets are left alone.

const app = path.resolve(__dirname, '..');
const PLUGINS = [
  '@capacitor/app',
  '@capacitor/push-notifications',
  '@capacitor/keyboard',
  '@capacitor/status-bar',
  '@capacitor/filesystem',
  '@capacitor/share',
  '@capgo/capacitor-video-player',
  '@capacitor-community/media',
];
const MARKER = `<!doctype html><title>sync check ${process.pid}</title>`;

let dir: string;
const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');

beforeAll(async () => {
  // Inside apps/web, so the CLI finds the plugins in node_modules as it does for the real project.
  dir = mkdtempSync(path.join(app, '.cap-sync-'));
  for (const entry of ['package.json', 'capacitor.config.ts', 'android', 'ios']) {
    cpSync(path.join(app, entry), path.join(dir, entry), {
      recursive: true,
      // Synced output of an earlier run is not part of the project.
      filter: (src) => !/[\\/](assets[\\/]public|App[\\/]App[\\/]public|build|\.gradle)$/.test(src),
    });
  }
  mkdirSync(path.join(dir, 'dist-native', 'assets'), { recursive: true });
  writeFileSync(path.join(dir, 'dist-native', 'index.html'), MARKER);
  writeFileSync(path.join(dir, 'dist-native', 'assets', 'app.js'), 'console.log(1);');
  const env = { ...process.env, HOMESITTER_SERVER_URL: '', HOMESITTER_LIVE_RELOAD_URL: '' };
  await promisify(execFile)(process.execPath, [path.join(app, 'scripts', 'cap.mjs'), 'sync'], {
    cwd: dir,
    env,
  });
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm run mobile:sync', () => {
  it('is the web build followed by cap sync, from the root and from apps/web', () => {
    const root = JSON.parse(readFileSync(path.join(app, '..', '..', 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const web = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(root.scripts['mobile:sync']).toBe('npm run mobile:sync -w apps/web');
    expect(web.scripts['mobile:sync']).toBe('node scripts/mobile-sync.mjs');
  });

  it('refuses to build an app that does not know its server, unless --dev says so', async () => {
    const sync = (env: Record<string, string>) =>
      promisify(execFile)(process.execPath, [path.join(app, 'scripts', 'mobile-sync.mjs')], {
        cwd: app,
        env: { ...process.env, ...env },
      });
    await expect(sync({ HOMESITTER_SERVER_URL: '' })).rejects.toMatchObject({
      stderr: expect.stringContaining('HOMESITTER_SERVER_URL is not set') as unknown,
    });
    await expect(sync({ HOMESITTER_SERVER_URL: 'https://example.com/homesitter' })).rejects.toMatchObject({
      stderr: expect.stringContaining("must be the server's origin only") as unknown,
    });
  });

  it('copies the built web app and the config into both projects', () => {
    expect(read('android/app/src/main/assets/public/index.html')).toBe(MARKER);
    expect(read('ios/App/App/public/index.html')).toBe(MARKER);
    expect(existsSync(path.join(dir, 'android/app/src/main/assets/public/assets/app.js'))).toBe(true);
    for (const file of [
      'android/app/src/main/assets/capacitor.config.json',
      'ios/App/App/capacitor.config.json',
    ]) {
      const config = JSON.parse(read(file)) as {
        appId: string;
        appName: string;
        plugins: { PushNotifications: { presentationOptions: string[] } };
      };
      expect(config).toMatchObject({ appId: 'app.homesitter', appName: 'Homesitter' });
      expect(config.plugins.PushNotifications.presentationOptions).toEqual([]);
      // The bundled app, not a remote website (Capacitor's server.url is for live reload only).
      expect((config as CapacitorConfig).server?.url).toBeUndefined();
    }
  });

  it('wires every plugin into the Android and the iOS project', () => {
    const gradle = read('android/capacitor.settings.gradle');
    const androidPlugins = (
      JSON.parse(read('android/app/src/main/assets/capacitor.plugins.json')) as { pkg: string }[]
    ).map((p) => p.pkg);
    const swift = read('ios/App/CapApp-SPM/Package.swift');
    for (const plugin of PLUGINS) {
      expect(androidPlugins).toContain(plugin);
      expect(gradle).toContain(`node_modules/${plugin}/android`);
      expect(swift).toContain(`node_modules/${plugin}"`);
    }
    // The project's own plugin (camera discovery, plugins/lan-discovery), by its path in the repository.
    expect(androidPlugins).toContain('@homesitter/lan-discovery');
    expect(gradle).toContain("include ':homesitter-lan-discovery'");
    expect(gradle).toContain('plugins/lan-discovery/android');
    expect(swift).toContain('.product(name: "HomesitterLanDiscovery", package: "HomesitterLanDiscovery")');
  });

  it('declares what camera discovery needs: Wi-Fi and multicast on Android, the local network on iOS', () => {
    const manifest = readFileSync(
      path.join(app, 'plugins/lan-discovery/android/src/main/AndroidManifest.xml'),
      'utf8',
    );
    for (const permission of ['INTERNET', 'ACCESS_WIFI_STATE', 'CHANGE_WIFI_MULTICAST_STATE']) {
      expect(manifest).toContain(`<uses-permission android:name="android.permission.${permission}" />`);
    }
    expect(read('ios/App/App/Info.plist')).toMatch(
      /<key>NSLocalNetworkUsageDescription<\/key>\s*<string>[^<]+</,
    );
  });

  it('registers the homesitter:// scheme and push on both platforms', () => {
    const manifest = read('android/app/src/main/AndroidManifest.xml');
    expect(manifest).toContain('<data android:scheme="homesitter" />');
    expect(manifest).toContain('android.permission.POST_NOTIFICATIONS');
    const plist = read('ios/App/App/Info.plist');
    expect(plist).toMatch(/<key>CFBundleURLSchemes<\/key>\s*<array>\s*<string>homesitter<\/string>/);
    expect(read('ios/App/App/App.entitlements')).toContain('aps-environment');
    expect(read('ios/App/App.xcodeproj/project.pbxproj')).toContain(
      'CODE_SIGN_ENTITLEMENTS = App/App.entitlements;',
    );
    expect(read('ios/App/App/AppDelegate.swift')).toContain('capacitorDidRegisterForRemoteNotifications');
  });
});

describe('capacitor.config.ts', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  async function load(env: Record<string, string>): Promise<CapacitorConfig> {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    vi.resetModules();
    return (await import('../capacitor.config')).default;
  }

  it('runs the bundled app from dist-native on https://localhost and capacitor://localhost', async () => {
    const config = await load({
      HOMESITTER_SERVER_URL: 'https://homesitter.example.com',
      HOMESITTER_LIVE_RELOAD_URL: '',
    });
    expect(config.webDir).toBe('dist-native');
    expect(config.server).toEqual({ androidScheme: 'https', iosScheme: 'capacitor', hostname: 'localhost' });
    expect(config.android?.allowMixedContent).toBeUndefined();
  });

  it('allows cleartext (Android) only for a plain-http server', async () => {
    const config = await load({
      HOMESITTER_SERVER_URL: 'http://192.168.1.20:8080',
      HOMESITTER_LIVE_RELOAD_URL: '',
    });
    expect(config.server?.url).toBeUndefined();
    expect(config.server?.cleartext).toBe(true);
    expect(config.android?.allowMixedContent).toBe(true);
  });

  it('loads a live-reload address only when HOMESITTER_LIVE_RELOAD_URL asks for it', async () => {
    const config = await load({
      HOMESITTER_SERVER_URL: '',
      HOMESITTER_LIVE_RELOAD_URL: 'http://192.168.1.20:5173',
    });
    expect(config.server?.url).toBe('http://192.168.1.20:5173');
    expect(config.server?.cleartext).toBe(true);
  });
});
