import {
  memoryInputSchemas,
  type MemoryBody,
  type MemoryCategory,
  type MemoryInput,
} from '@homesitter/contract';
import type { z } from 'zod';
import { memoryErrors } from './memories.errors.js';
import type { MemoryValues } from './memories.repository.js';
import { expirationToInstant } from './wall-time.js';

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const path = i.path.join('.');
      if (i.code === 'unrecognized_keys') return `${i.keys.join(', ')}: not a field of this category`;
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join('; ');
}

export type AnyInput = Partial<
  MemoryInput<'people'> & MemoryInput<'vehicles'> & MemoryInput<'animals'> & MemoryInput<'other'>
>;

/** Checks the body against the category's fields; `partial` for updates. */
export function parseMemoryInput(category: MemoryCategory, body: MemoryBody, partial: boolean): AnyInput {
  const schema = memoryInputSchemas[category];
  const parsed = (partial ? schema.partial() : schema).safeParse(body);
  if (!parsed.success) throw memoryErrors.invalid(describeIssues(parsed.error));
  return parsed.data;
}

/**
 * The row values of a checked body: the expiration read in the owner's time zone (and in the future), the
 * properties checked to be the owner's own (`ownedSiteIds` answers which of them are).
 */
export async function memoryValues(
  input: AnyInput,
  owner: { id: string; timezone: string | null },
  deps: { ownedSiteIds: (userId: string, ids: string[]) => Promise<string[]>; now: () => Date },
): Promise<{ values: MemoryValues; siteIds?: string[] }> {
  const values: MemoryValues = {};
  for (const field of [
    'name',
    'owner',
    'make',
    'model',
    'year',
    'color',
    'species',
    'text',
    'notes',
  ] as const) {
    if (input[field] !== undefined) (values as Record<string, unknown>)[field] = input[field];
  }
  if (input.expiration !== undefined) {
    if (input.expiration === null) values.expiresAt = null;
    else {
      const at = expirationToInstant(input.expiration, owner.timezone);
      if (at.getTime() <= deps.now().getTime())
        throw memoryErrors.invalid('expiration: must be in the future');
      values.expiresAt = at;
    }
  }
  if (input.property_associations === undefined) return { values };
  const wanted = [...new Set(input.property_associations)];
  const owned = await deps.ownedSiteIds(owner.id, wanted);
  const unknown = wanted.filter((id) => !owned.includes(id));
  if (unknown.length > 0)
    throw memoryErrors.invalid(`property_associations: no such property ${unknown.join(', ')}`);
  return { values, siteIds: wanted };
}
