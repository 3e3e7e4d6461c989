/**
 * The eval set of real security-camera frames and clips (issue #30): its labels live in the repository
 * (`test-media/vision-eval/labels.json`, with `SOURCES.md`), its media beside them or in `VISION_EVAL_DIR`
 * (the media come from third-party repositories and are kept out of the project's history: see SOURCES.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ObjectKind } from '../../src/adapters/vision/vision.js';

export type Split = 'tune' | 'held-out';

export interface LabelledFace {
  /** A letter shared by the same person across items, or `unknown` for someone seen once. */
  identity: string;
  /** Hairline to chin, in pixels of the file. */
  height_px: number;
  /** False for profiles and tilted heads. */
  frontal: boolean;
  /** Where the face is across the picture (0 left … 1 right), given where an item has several faces. */
  x?: number;
}

export interface CameraItem {
  name: string;
  split: Split;
  kinds: ObjectKind[];
  /** Stills only. */
  person_count?: number;
  night: boolean;
  faces: LabelledFace[];
  conditions: string[];
}

interface LabelsFile {
  files: Record<string, Omit<CameraItem, 'name'>>;
}

export interface CameraSet {
  labelsPath: string;
  mediaDir: string;
  items: CameraItem[];
}

export const cameraLabelsPath = (repoRoot: string) =>
  join(repoRoot, 'test-media', 'vision-eval', 'labels.json');

export function readCameraLabels(labelsPath: string): CameraItem[] {
  const labels = JSON.parse(readFileSync(labelsPath, 'utf8')) as LabelsFile;
  return Object.entries(labels.files).map(([name, l]) => ({ name, ...l }));
}

/** The set, or why it cannot be run (no labels, or not all of its media found). */
export function loadCameraSet(repoRoot: string): CameraSet | string {
  const labelsPath = cameraLabelsPath(repoRoot);
  if (!existsSync(labelsPath)) return `no labels at ${labelsPath}`;
  const items = readCameraLabels(labelsPath);
  const candidates = [
    process.env.VISION_EVAL_DIR,
    join(repoRoot, 'test-media', 'vision-eval'),
    join(repoRoot, '..', 'shared', 'vision-eval'),
  ].filter((d): d is string => Boolean(d));
  const mediaDir = candidates.find((d) => items.every((i) => existsSync(join(d, i.name))));
  if (!mediaDir) return `its media are not in ${candidates.join(' or ')}; set VISION_EVAL_DIR`;
  return { labelsPath, mediaDir, items };
}
