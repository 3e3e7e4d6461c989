import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithLocation } from '../../../test/images.js';
import { ftpLogin, smtpSend } from './ingest.net-client.js';
import {
  startIngestHarness,
  uploadsOf,
  userIdOf,
  userWithLogin,
  type IngestHarness,
  type UploadLogin,
} from './ingest.test-support.js';

/** Uploads sent per protocol: two a second for a minute, more than a household's cameras send. */
const UPLOADS = 120;
/** Cameras sending at once (each a session of its own, signing in for every file as cameras do). */
const CAMERAS = 4;

/**
 * A household's cameras behind one address and one login sending many files: only failed logins are
 * limited, so every one is taken (no 421/425/429-like refusal). Prints how many were taken and how fast.
 */
describe('many uploads from one address and one login', () => {
  let h: IngestHarness;
  let login: UploadLogin;
  let userId: string;
  /** Distinct files (a re-sent file would be recognised as one), as cameras send. */
  const files: Buffer[] = [];

  beforeAll(async () => {
    h = await startIngestHarness();
    const a = await userWithLogin(h.t);
    login = a.login;
    userId = await userIdOf(h.t, a.user);
    for (let i = 0; i < 8; i++) files.push(await jpegWithLocation(160 + i * 8, 120));
  }, 60_000);
  afterAll(async () => h.close());

  /** Runs `send(i)` for i in [0, UPLOADS) over CAMERAS at once; answers the codes and the seconds it took. */
  async function burst(send: (i: number) => Promise<number>) {
    const started = performance.now();
    const codes: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CAMERAS }, async () => {
        while (next < UPLOADS) codes.push(await send(next++));
      }),
    );
    return { codes, seconds: (performance.now() - started) / 1000 };
  }

  it(`takes ${UPLOADS} FTP uploads`, async () => {
    const { codes, seconds } = await burst(async (i) => {
      const session = await ftpLogin({ host: '127.0.0.1', port: h.servers.ftpPort, ...login });
      try {
        return (await session.store(`/Burst ftp/${i}.jpg`, files[i % files.length]!, 'EPSV')).reply.code;
      } finally {
        session.close();
      }
    });
    const taken = codes.filter((c) => c === 226).length;
    console.info(`[ingest] FTP from one address: ${taken}/${UPLOADS} taken in ${seconds.toFixed(1)} s`);
    expect(codes).toEqual(Array.from({ length: UPLOADS }, () => 226));
    expect((await uploadsOf(h.t, userId)).filter((u) => u.camera_name === 'Burst ftp')).toHaveLength(UPLOADS);
  }, 120_000);

  it(`takes ${UPLOADS} mails`, async () => {
    const { codes, seconds } = await burst(
      async (i) =>
        (
          await smtpSend(
            { host: '127.0.0.1', port: h.servers.smtpPort, ...login },
            {
              from: '"Burst mail" <cam@camera.test>',
              subject: 'Motion',
              attachments: [
                { filename: `${i}.jpg`, contentType: 'image/jpeg', bytes: files[i % files.length]! },
              ],
            },
          )
        ).code,
    );
    const taken = codes.filter((c) => c === 250).length;
    console.info(`[ingest] SMTP from one address: ${taken}/${UPLOADS} taken in ${seconds.toFixed(1)} s`);
    expect(codes).toEqual(Array.from({ length: UPLOADS }, () => 250));
    expect((await uploadsOf(h.t, userId)).filter((u) => u.camera_name === 'Burst mail')).toHaveLength(
      UPLOADS,
    );
  }, 120_000);
});
