/**
 * The camera eval set through the local engine, reported per half (tune, held-out): per kind precision and
 * recall, person count, false persons in empty scenes, faces found by height and identified, time per frame
 * and the vision process's memory. Only reports: the issue's targets are printed, not enforced.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalVisionEngine } from '../../src/adapters/vision/local.vision.js';
import type { ObjectKind } from '../../src/adapters/vision/vision.js';
import { DEFAULT_MIN_SCORES } from '../../src/adapters/vision/vision.labels.js';
import { matchFace } from '../../src/modules/recognition/face-match.js';
import { extractFrames } from '../../src/modules/media/frames.js';
import type { Logger } from '../../src/platform/logger.js';
import { statusMb, visionChildren } from '../../bench/proc.js';
import { loadCameraSet, type CameraItem, type Split } from './camera-set.js';
import {
  KINDS,
  detection,
  facesBySize,
  falsePersonsInEmpty,
  identification,
  personCount,
  quantile,
  type Seen,
} from './score.js';

const FLOOR = 0.1;
const SWEEP = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5];
const FRAMES_PER_CLIP = 4;

async function framesOf(dir: string, item: CameraItem): Promise<Buffer[]> {
  const path = join(dir, item.name);
  return item.name.endsWith('.mp4') ? extractFrames(path, FRAMES_PER_CLIP) : [readFileSync(path)];
}

async function timed<T>(ms: number[], work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  ms.push(performance.now() - started);
  return result;
}

function processRss(): string {
  return visionChildren(process.pid)
    .map((pid) => `${statusMb(pid, 'VmRSS')} MB now, ${statusMb(pid)} MB at most`)
    .join('; ');
}

const f2 = (x: number) => x.toFixed(2);
const pct = (n: number, of: number) => (of === 0 ? '—' : `${n}/${of} (${Math.round((100 * n) / of)} %)`);

export async function evalCameraSet(repoRoot: string, log: Logger): Promise<void> {
  const set = loadCameraSet(repoRoot);
  if (typeof set === 'string') {
    console.log(`\nCamera eval set skipped: ${set}`);
    return;
  }
  console.log(`\n==== Camera eval set: ${set.items.length} items from ${set.mediaDir}`);

  // Objects as the server finds them, collected from a low floor so the tuning half can be swept.
  const detector = createLocalVisionEngine({
    log,
    minScores: { person: FLOOR, vehicle: FLOOR, animal: FLOOR },
  });
  const seen: Seen[] = [];
  let warm = false;
  for (const item of set.items) {
    const best: Record<ObjectKind, number> = { person: 0, vehicle: 0, animal: 0 };
    const personScores: number[][] = [];
    const objectMs: number[] = [];
    for (const image of await framesOf(set.mediaDir, item)) {
      // The first call starts the vision process and loads the models: not a frame's time.
      const result = warm
        ? await timed(objectMs, () => detector.analyse(image))
        : await detector.analyse(image);
      warm = true;
      for (const o of result.objects) best[o.kind] = Math.max(best[o.kind], o.score);
      personScores.push(result.objects.filter((o) => o.kind === 'person').map((o) => o.score));
    }
    seen.push({ item, best, personScores, faces: [], objectMs, facesMs: [] });
  }
  const objectsRss = processRss();
  await detector.close();

  // Faces as the server looks for them: the engine's own minimum scores, faces in person boxes (stills).
  const engine = createLocalVisionEngine({ log });
  warm = false;
  for (const s of seen.filter((x) => !x.item.name.endsWith('.mp4'))) {
    const image = readFileSync(join(set.mediaDir, s.item.name));
    const result = warm
      ? await timed(s.facesMs, () => engine.analyse(image, { faces: true }))
      : await engine.analyse(image, { faces: true });
    warm = true;
    s.faces = result.faces.map((f) => ({
      height: f.box[3],
      x: (f.box[0] + f.box[2] / 2) / result.width,
      descriptor: f.descriptor,
    }));
  }
  const facesRss = processRss();
  await engine.close();

  for (const split of ['tune', 'held-out'] as Split[])
    report(
      split,
      seen.filter((s) => s.item.split === split),
    );
  console.log(`\n  vision process RSS: objects only ${objectsRss}; objects + faces ${facesRss}`);
  printItems(seen);
}

function report(split: Split, seen: Seen[]) {
  const stills = seen.filter((s) => s.personScores.length === 1).length;
  console.log(`\n---- ${split} half: ${seen.length} items (${stills} stills, ${seen.length - stills} clips)`);
  console.log('  at the engine’s minimum scores:');
  for (const k of KINDS) {
    const r = detection(seen, k, DEFAULT_MIN_SCORES[k]);
    console.log(
      `    ${k.padEnd(8)} min ${f2(DEFAULT_MIN_SCORES[k])}  precision ${f2(r.precision)}  recall ${f2(r.recall)}  (tp ${r.tp}, fp ${r.fp}, fn ${r.fn})`,
    );
  }
  const night = seen.filter((s) => s.item.night);
  const nightRates = KINDS.map((k) => {
    const r = detection(night, k, DEFAULT_MIN_SCORES[k]);
    return `${k} ${f2(r.precision)} / ${f2(r.recall)}`;
  });
  console.log(
    `    night / infra-red only (${night.length} items, precision / recall): ${nightRates.join(', ')}`,
  );
  const count = personCount(seen, DEFAULT_MIN_SCORES.person);
  console.log(
    `  person count exact on ${pct(count.exact, count.of)} stills with people (under ${count.under}, over ${count.over})`,
  );
  const empty = falsePersonsInEmpty(seen, DEFAULT_MIN_SCORES.person);
  console.log(
    `  false person in ${empty.said.length} of ${empty.of} empty scenes${empty.said.length ? `: ${empty.said.join(', ')}` : ''}`,
  );
  if (split === 'tune') {
    console.log('  sweep over the minimum score (precision / recall):');
    for (const t of SWEEP) {
      const cells = KINDS.map((k) => {
        const r = detection(seen, k, t);
        return `${k} ${f2(r.precision)} / ${f2(r.recall)}`;
      });
      console.log(`    ${f2(t)}  ${cells.join('   ')}`);
    }
  }
  const all = facesBySize(seen, false);
  const frontal = facesBySize(seen, true);
  console.log('  faces found, by height (all / frontal only):');
  all.rows.forEach((row, i) => {
    const f = frontal.rows[i];
    console.log(
      `    ${row.label.padEnd(9)} ${pct(row.found, row.of).padEnd(14)} ${f ? pct(f.found, f.of) : ''}`,
    );
  });
  console.log(`    faces found beyond the labelled ones: ${all.extra}`);
  const id = identification(
    seen,
    (d, gallery) =>
      matchFace(
        d,
        gallery.map((g) => ({
          memoryId: g.memoryId,
          name: g.memoryId,
          descriptor: g.descriptor,
          negative: false,
        })),
      )?.memoryId,
  );
  console.log(
    `  identified (leave-one-out within the half): ${pct(id.named, id.recurring)} of found faces of recurring people; false identifications ${id.falseIds} of ${id.probes} found faces`,
  );
  const objectMs = seen.flatMap((s) => s.objectMs);
  const facesMs = seen.flatMap((s) => s.facesMs);
  console.log(
    `  time per frame: objects p50 ${quantile(objectMs, 0.5).toFixed(0)} ms, p95 ${quantile(objectMs, 0.95).toFixed(0)} ms (${objectMs.length}); objects + faces p50 ${quantile(facesMs, 0.5).toFixed(0)} ms, p95 ${quantile(facesMs, 0.95).toFixed(0)} ms (${facesMs.length})`,
  );
}

function printItems(seen: Seen[]) {
  console.log(
    '\n  per item: best score per kind (truth marked *), people counted / labelled, faces found / labelled',
  );
  for (const s of seen) {
    const cells = KINDS.map((k) => `${k[0]} ${f2(s.best[k])}${s.item.kinds.includes(k) ? '*' : ' '}`).join(
      ' ',
    );
    const counted =
      s.personScores.length === 1
        ? `${(s.personScores[0] ?? []).filter((x) => x >= DEFAULT_MIN_SCORES.person).length}/${s.item.person_count ?? 0}`
        : 'clip';
    console.log(
      `    ${s.item.split === 'tune' ? 'T' : 'H'} ${s.item.name.padEnd(30)} ${cells}  people ${counted.padEnd(5)} faces ${s.faces.length}/${s.item.faces.length}`,
    );
  }
}
