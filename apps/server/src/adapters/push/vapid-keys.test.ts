import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { defaultVapidSubject, loadVapidKeys, VapidKeyError } from './vapid-keys.js';

const subject = 'mailto:ops@homesitter.test';
const freshDir = () => mkdtempSync(join(tmpdir(), 'hs-vapid-'));

describe('VAPID keys', () => {
  it('are generated once into DATA_DIR/vapid.json, readable by the owner only, and reused', () => {
    const dataDir = freshDir();
    const first = loadVapidKeys({ publicKey: undefined, privateKey: undefined, subject, dataDir });
    const file = join(dataDir, 'vapid.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      publicKey: first.publicKey,
      privateKey: first.privateKey,
    });
    const again = loadVapidKeys({ publicKey: undefined, privateKey: undefined, subject, dataDir });
    expect(again).toEqual(first);
    expect(first.publicKey).toMatch(/^B[A-Za-z0-9_-]{86}$/);
  });

  it('come from the environment when both are set, and nothing is written', () => {
    const dataDir = freshDir();
    const keys = webpush.generateVAPIDKeys();
    expect(loadVapidKeys({ ...keys, subject, dataDir })).toEqual({ ...keys, subject });
    expect(() => statSync(join(dataDir, 'vapid.json'))).toThrow();
  });

  it('refuse half a pair, a malformed key, a broken file and a subject that is not mailto: or https:', () => {
    const dataDir = freshDir();
    const keys = webpush.generateVAPIDKeys();
    expect(() =>
      loadVapidKeys({ publicKey: keys.publicKey, privateKey: undefined, subject, dataDir }),
    ).toThrow(VapidKeyError);
    expect(() =>
      loadVapidKeys({ publicKey: 'short', privateKey: keys.privateKey, subject, dataDir }),
    ).toThrow(/public key/);
    expect(() => loadVapidKeys({ ...keys, subject: 'ops@homesitter.test', dataDir })).toThrow(/mailto/);
    writeFileSync(join(dataDir, 'vapid.json'), '{"publicKey": 1}');
    expect(() => loadVapidKeys({ publicKey: undefined, privateKey: undefined, subject, dataDir })).toThrow(
      VapidKeyError,
    );
  });

  it('name the public https URL, else the mail sender, as the contact', () => {
    expect(defaultVapidSubject('https://home.example.com', 'Homesitter <no-reply@home.example.com>')).toBe(
      'https://home.example.com',
    );
    expect(defaultVapidSubject('http://localhost:8080', 'Homesitter <no-reply@homesitter.local>')).toBe(
      'mailto:no-reply@homesitter.local',
    );
    expect(defaultVapidSubject('http://localhost:8080', 'ops@example.com')).toBe('mailto:ops@example.com');
  });
});
