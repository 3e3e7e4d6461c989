/** Memories (docs/product.md §3): plain values the browser needs too, without zod. */

/** The `{category}` path segment of the memory calls and screens. */
export const MEMORY_CATEGORIES = ['people', 'vehicles', 'animals', 'other'] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];

/** `general` is accepted in paths as a synonym of `other` (the list's key for it). */
export const MEMORY_CATEGORY_ALIASES: Readonly<Record<string, MemoryCategory>> = { general: 'other' };

/** The key of each category in `GET /api/users/memories`. */
export const MEMORY_LIST_KEYS = {
  people: 'people',
  vehicles: 'vehicles',
  animals: 'animals',
  other: 'general',
} as const satisfies Record<MemoryCategory, string>;

/** Default photo limit per memory (the server's `MEMORY_PHOTO_LIMIT`; docs/product.md keeps its value open). */
export const DEFAULT_MEMORY_PHOTO_LIMIT = 10;
/** Default largest accepted image (the server's `MAX_IMAGE_BYTES`). */
export const DEFAULT_MAX_IMAGE_BYTES = 15 * 1024 * 1024;
/** Image types a memory photo may have; the server sniffs them from the bytes. */
export const MEMORY_IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'image/heif',
] as const;

/** Field bounds of a memory. */
export const MEMORY_TEXT_MAX = 2_000;
export const MEMORY_FIELD_MAX = 100;
export const MEMORY_MAX_SITES = 100;
export const VEHICLE_YEAR_MIN = 1886;
export const VEHICLE_YEAR_MAX = 2100;
