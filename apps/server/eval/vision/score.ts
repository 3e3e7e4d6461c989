/**
 * Scoring of the camera eval set (pure): what the engine said about each item against its labels.
 */
import type { ObjectKind } from '../../src/adapters/vision/vision.js';
import type { CameraItem, LabelledFace } from './camera-set.js';

export const KINDS: ObjectKind[] = ['person', 'vehicle', 'animal'];

export interface FoundFace {
  height: number;
  x: number;
  descriptor: number[];
}

/** What the engine saw in one item (a clip: over its frames). */
export interface Seen {
  item: CameraItem;
  /** Highest score per kind, over the frames. */
  best: Record<ObjectKind, number>;
  /** Person boxes per frame at each score (stills: one frame), for counting at a minimum score. */
  personScores: number[][];
  /** Faces found (stills): box height, centre across the picture (0 … 1) and descriptor. */
  faces: FoundFace[];
  /** Milliseconds per analysed frame. */
  objectMs: number[];
  facesMs: number[];
}

export interface Rate {
  precision: number;
  recall: number;
  tp: number;
  fp: number;
  fn: number;
}

export function detection(seen: Seen[], kind: ObjectKind, minScore: number): Rate {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const s of seen) {
    const said = s.best[kind] >= minScore;
    const is = s.item.kinds.includes(kind);
    if (said && is) tp++;
    else if (said) fp++;
    else if (is) fn++;
  }
  return {
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    recall: tp + fn === 0 ? 1 : tp / (tp + fn),
    tp,
    fp,
    fn,
  };
}

/** Stills with people whose person count is exact; `under` and `over` say which way the others miss. */
export function personCount(seen: Seen[], minScore: number) {
  const stills = seen.filter((s) => s.personScores.length === 1 && (s.item.person_count ?? 0) > 0);
  let exact = 0;
  let under = 0;
  let over = 0;
  for (const s of stills) {
    const counted = (s.personScores[0] ?? []).filter((x) => x >= minScore).length;
    const truth = s.item.person_count ?? 0;
    if (counted === truth) exact++;
    else if (counted < truth) under++;
    else over++;
  }
  return { exact, under, over, of: stills.length };
}

/** Scenes labelled empty in which a person was said. */
export function falsePersonsInEmpty(seen: Seen[], minScore: number) {
  const empty = seen.filter((s) => s.item.kinds.length === 0);
  return { said: empty.filter((s) => s.best.person >= minScore).map((s) => s.item.name), of: empty.length };
}

export const FACE_BUCKETS = [
  { label: '< 24 px', below: 24 },
  { label: '24–39 px', below: 40 },
  { label: '40–63 px', below: 64 },
  { label: '≥ 64 px', below: Infinity },
];
export const bucketOf = (heightPx: number) => FACE_BUCKETS.findIndex((b) => heightPx < b.below);

/** A found face further than this (in picture widths) from a labelled face's `x` is not that face. */
const SAME_FACE_X = 0.12;

/**
 * Labelled faces carry no boxes. Where they give `x`, each is paired with the nearest found face across the
 * picture (nearest pairs first, within SAME_FACE_X); otherwise (one face, or no positions) largest with
 * largest. A labelled face counts as found when it has a pair; found faces without one are extra.
 */
export function pairFaces(s: Seen): { pairs: { face: LabelledFace; detected?: FoundFace }[]; extra: number } {
  const labelled = [...s.item.faces].sort((a, b) => b.height_px - a.height_px);
  const found = [...s.faces].sort((a, b) => b.height - a.height);
  if (!labelled.every((f) => f.x !== undefined)) {
    return {
      pairs: labelled.map((face, i) => ({ face, detected: found[i] })),
      extra: Math.max(0, found.length - labelled.length),
    };
  }
  const candidates = labelled
    .flatMap((face) => found.map((detected) => ({ face, detected, d: Math.abs((face.x ?? 0) - detected.x) })))
    .filter((c) => c.d <= SAME_FACE_X)
    .sort((a, b) => a.d - b.d);
  const paired = new Map<LabelledFace, FoundFace>();
  const used = new Set<FoundFace>();
  for (const c of candidates) {
    if (paired.has(c.face) || used.has(c.detected)) continue;
    paired.set(c.face, c.detected);
    used.add(c.detected);
  }
  return {
    pairs: labelled.map((face) => ({ face, detected: paired.get(face) })),
    extra: found.length - used.size,
  };
}

export function facesBySize(seen: Seen[], frontalOnly: boolean) {
  const rows = FACE_BUCKETS.map((b) => ({ ...b, found: 0, of: 0 }));
  let extra = 0;
  for (const s of seen) {
    const { pairs, extra: e } = pairFaces(s);
    extra += e;
    for (const p of pairs) {
      if (frontalOnly && !p.face.frontal) continue;
      const row = rows[bucketOf(p.face.height_px)];
      if (!row) continue;
      row.of++;
      if (p.detected) row.found++;
    }
  }
  return { rows, extra };
}

export const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

/**
 * Leave-one-out identification within a set of items: each found face of a recurring person (a letter) is
 * matched against the found faces of every other item, enrolled as one memory per letter. Named: matched
 * to its own letter. False: matched to a letter that is not theirs (a stranger, `unknown`, matched to
 * anyone counts too). A person with no other item to be enrolled from must match nobody.
 */
export function identification(
  seen: Seen[],
  match: (descriptor: number[], gallery: { memoryId: string; descriptor: number[] }[]) => string | undefined,
) {
  const found = seen.flatMap((s) =>
    pairFaces(s).pairs.flatMap((p) =>
      p.detected ? [{ item: s.item.name, identity: p.face.identity, descriptor: p.detected.descriptor }] : [],
    ),
  );
  let recurring = 0;
  let named = 0;
  let falseIds = 0;
  let probes = 0;
  for (const probe of found) {
    const gallery = found
      .filter((f) => f.item !== probe.item && f.identity !== 'unknown')
      .map((f) => ({ memoryId: f.identity, descriptor: f.descriptor }));
    const enrolled = gallery.some((g) => g.memoryId === probe.identity);
    const said = match(probe.descriptor, gallery);
    probes++;
    if (enrolled) recurring++;
    if (enrolled && said === probe.identity) named++;
    if (said !== undefined && said !== probe.identity) falseIds++;
  }
  return { recurring, named, falseIds, probes };
}
