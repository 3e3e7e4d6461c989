/**
 * Memories for `npm run bench:api`: a user with 200 memories and 1,000 photos (seeded through the API), and
 * the server's peak RSS while 10 clients upload a 4 MB JPEG each at the same time (and after the faces of those
 * people photos were learnt, with the vision process's own peak apart).
 * Targets (issue "Memories"): the list answers in ≤ 50 ms p99; peak RSS during the uploads ≤ 300 MB.
 */
import sharp from 'sharp';
import { postJson, startBenchServer } from './harness.js';

export const MEMORIES_USER = 'bench-memories@example.com';
const CATEGORIES = ['people', 'vehicles', 'animals', 'other'] as const;

function bodyFor(category: (typeof CATEGORIES)[number], i: number) {
  if (category === 'people') return { name: `Person ${i}`, notes: 'Comes on Tuesdays' };
  if (category === 'vehicles')
    return { make: 'VW', model: 'Golf', year: 2019, color: 'blue', owner: `Owner ${i}` };
  if (category === 'animals') return { name: `Pet ${i}`, species: 'dog' };
  return { text: `Note ${i}: parcels go behind the bin` };
}

async function smallPhoto(i: number): Promise<Buffer> {
  return sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: i % 256, g: 90, b: 160 } },
  })
    .jpeg()
    .toBuffer();
}

async function uploadPhoto(base: string, auth: Record<string, string>, path: string, photo: Buffer) {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: auth, body: form });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
}

/** 200 memories (50 per category) with 5 photos each, through the API, 8 requests at a time. */
export async function twoHundredMemoriesWithAThousandPhotos(base: string): Promise<Record<string, string>> {
  const session = await postJson<{ idToken: string }>(`${base}/api/auth/sign-up`, {
    email: MEMORIES_USER,
    password: 'bench password',
  });
  const auth = { authorization: `Bearer ${session.idToken}` };
  await postJson(`${base}/api/users`, { timezone: 'Europe/Berlin' }, auth);
  const photos = await Promise.all([0, 1, 2, 3, 4].map(smallPhoto));
  const jobs: (() => Promise<void>)[] = [];
  for (let i = 0; i < 200; i += 1) {
    const category = CATEGORIES[i % 4]!;
    jobs.push(async () => {
      const memory = (
        await postJson<{ data: { memory_uuid: string } }>(
          `${base}/api/users/memories/${category}`,
          bodyFor(category, i),
          auth,
        )
      ).data;
      for (const photo of photos)
        await uploadPhoto(base, auth, `/api/users/memories/${category}/${memory.memory_uuid}/images`, photo);
    });
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
  return auth;
}

/** A ~4 MB photo-like JPEG (noise compresses poorly, so a 1,200×1,200 image at quality 95 is about 4 MB). */
async function fourMegabyteJpeg(): Promise<Buffer> {
  let side = 1200;
  for (;;) {
    const raw = Buffer.alloc(side * side * 3);
    for (let i = 0; i < raw.length; i += 1) raw[i] = (Math.random() * 256) | 0;
    const jpeg = await sharp(raw, { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    if (jpeg.length >= 4 * 1024 * 1024) return jpeg;
    side = Math.ceil(side * 1.1);
  }
}

/** Peak RSS of a fresh server while 10 clients each upload a 4 MB JPEG at once. */
export async function uploadPeakRss(env: Record<string, string>): Promise<string> {
  const server = await startBenchServer({ ...env, VERIFICATION_EXEMPT_EMAILS: MEMORIES_USER });
  try {
    const session = await postJson<{ idToken: string }>(`${server.base}/api/auth/sign-up`, {
      email: MEMORIES_USER,
      password: 'bench password',
    });
    const auth = { authorization: `Bearer ${session.idToken}` };
    await postJson(`${server.base}/api/users`, { timezone: 'Europe/Berlin' }, auth);
    const photo = await fourMegabyteJpeg();
    const memories = await Promise.all(
      Array.from(
        { length: 10 },
        async (_, i) =>
          (
            await postJson<{ data: { memory_uuid: string } }>(
              `${server.base}/api/users/memories/people`,
              { name: `Uploader ${i}` },
              auth,
            )
          ).data.memory_uuid,
      ),
    );
    const before = server.peakRssMb();
    const started = performance.now();
    await Promise.all(
      memories.map((id) => uploadPhoto(server.base, auth, `/api/users/memories/people/${id}/images`, photo)),
    );
    const seconds = (performance.now() - started) / 1000;
    const during = server.peakRssMb();
    // The photos are of a people memory: each queues recognition.learn-faces, which runs the vision models (in
    // their own process) after the upload was answered. Its memory is reported apart, and the server's own
    // peak again once that work is done.
    const learnt = env.VISION_ENABLED === 'false' ? 0 : await server.visionSettled();
    return [
      `10 × ${(photo.length / 1024 / 1024).toFixed(1)} MB JPEG uploads at once`.padEnd(44),
      `${seconds.toFixed(1)} s`.padStart(8),
      `peak RSS before ${before} MB, during ${during} MB`.padStart(40),
      learnt
        ? `\n${"then the 10 photos' faces learnt".padEnd(44)} ${`${learnt.toFixed(1)} s`.padStart(8)}` +
          `   server peak RSS ${server.peakRssMb()} MB, vision process peak RSS ${server.visionPeakRssMb()} MB`
        : '',
    ].join(' ');
  } finally {
    await server.stop();
  }
}
