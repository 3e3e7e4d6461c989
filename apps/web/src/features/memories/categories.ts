import { MEMORY_LIST_KEYS, type MemoryCategory } from '@homesitter/contract/runtime';
import type { Memories, Memory, MemoryBody } from '@homesitter/contract';
import { Car, PawPrint, StickyNote, User, type LucideIcon } from 'lucide-react';

export const CATEGORY_ICONS: Record<MemoryCategory, LucideIcon> = {
  people: User,
  vehicles: Car,
  animals: PawPrint,
  other: StickyNote,
};

export function isCategory(value: string | undefined): value is MemoryCategory {
  return value === 'people' || value === 'vehicles' || value === 'animals' || value === 'other';
}

/** `general` in a URL means `other`, as in the API. */
export function categoryFromParam(value: string | undefined): MemoryCategory | undefined {
  const v = value === 'general' ? 'other' : value;
  return isCategory(v) ? v : undefined;
}

export function memoriesOf(all: Memories | undefined, category: MemoryCategory): Memory[] {
  return all ? all[MEMORY_LIST_KEYS[category]] : [];
}

/** The line a memory is known by in lists and titles. */
export function memoryTitle(m: Memory): string {
  switch (m.category) {
    case 'people':
    case 'animals':
      return m.name;
    case 'vehicles':
      return [m.color, m.make, m.model].filter(Boolean).join(' ') || m.owner || String(m.year ?? '');
    case 'other':
      return m.text;
  }
}

export function memorySubtitle(m: Memory): string | null {
  if (m.category === 'animals') return m.species;
  if (m.category === 'vehicles') return [m.year, m.owner].filter(Boolean).join(' · ') || null;
  return m.notes;
}

/** Text fields of each category, in form order. */
export const CATEGORY_FIELDS = {
  people: ['name'],
  vehicles: ['owner', 'make', 'model', 'year', 'color'],
  animals: ['name', 'species'],
  other: ['text'],
} as const satisfies Record<MemoryCategory, readonly (keyof MemoryBody)[]>;

export type FieldName = (typeof CATEGORY_FIELDS)[MemoryCategory][number];
export const REQUIRED_FIELDS: readonly FieldName[] = ['name', 'text'];
