import { z } from 'zod';
import { clientDate, multiLineText, singleLineText } from './common.js';
import {
  MEMORY_CATEGORIES,
  MEMORY_CATEGORY_ALIASES,
  MEMORY_FIELD_MAX,
  MEMORY_MAX_SITES,
  MEMORY_TEXT_MAX,
  VEHICLE_YEAR_MAX,
  VEHICLE_YEAR_MIN,
  type MemoryCategory,
} from './memories.runtime.js';

const categoryList = [...MEMORY_CATEGORIES, ...Object.keys(MEMORY_CATEGORY_ALIASES)].join(', ');

/** The `{category}` path segment: people, vehicles, animals, other (or its synonym general). */
export const memoryCategoryParamSchema = z
  .string()
  .transform((v, ctx): MemoryCategory => {
    const c = MEMORY_CATEGORY_ALIASES[v] ?? v;
    if ((MEMORY_CATEGORIES as readonly string[]).includes(c)) return c as MemoryCategory;
    ctx.addIssue({ code: 'custom', message: `category must be one of ${categoryList}` });
    return z.NEVER;
  })
  .meta({ description: `One of ${categoryList}` });

export const memoryCategoryParamsSchema = z.object({ category: memoryCategoryParamSchema });
export const memoryParamsSchema = z.object({
  category: memoryCategoryParamSchema,
  id: z.uuid({ message: 'id must be a memory_uuid' }),
});
export const memoryImageParamsSchema = memoryParamsSchema.extend({
  imageId: z.uuid({ message: 'imageId must be an image id' }),
});

/** An image of a memory; URLs are signed and expire (`MEDIA_URL_TTL`). */
export const memoryImageSchema = z.object({
  id: z.string(),
  signedUrl: z.string(),
  thumbnailUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  created_at: z.string(),
});
export type MemoryImage = z.infer<typeof memoryImageSchema>;

/** When a short-term memory expires, as a wall-clock time in the user's time zone. */
export const memoryExpirationSchema = z.strictObject({
  date: clientDate('date', z.iso.date({ message: 'date must be YYYY-MM-DD' })),
  hour: z.number().int().min(1, 'hour is 1 to 12').max(12, 'hour is 1 to 12'),
  minute: z.number().int().min(0, 'minute is 0 to 59').max(59, 'minute is 0 to 59'),
  period: z.enum(['AM', 'PM']),
});
export type MemoryExpiration = z.infer<typeof memoryExpirationSchema>;

const memoryCommon = {
  memory_uuid: z.string(),
  notes: z.string().nullable(),
  images: z.array(memoryImageSchema),
  /** null: long-term. */
  expiration: memoryExpirationSchema.nullable(),
  /** Expiry instant (UTC, ISO 8601), null for a long-term memory. */
  expires_at: z.string().nullable(),
  /** site_uuid of each property the memory belongs to. */
  property_associations: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
};

export const personMemorySchema = z.object({
  category: z.literal('people'),
  name: z.string(),
  ...memoryCommon,
});
export const vehicleMemorySchema = z.object({
  category: z.literal('vehicles'),
  owner: z.string().nullable(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  year: z.number().int().nullable(),
  color: z.string().nullable(),
  ...memoryCommon,
});
export const animalMemorySchema = z.object({
  category: z.literal('animals'),
  name: z.string(),
  species: z.string().nullable(),
  ...memoryCommon,
});
export const otherMemorySchema = z.object({
  category: z.literal('other'),
  text: z.string(),
  ...memoryCommon,
});
export const memorySchema = z.discriminatedUnion('category', [
  personMemorySchema,
  vehicleMemorySchema,
  animalMemorySchema,
  otherMemorySchema,
]);
export type PersonMemory = z.infer<typeof personMemorySchema>;
export type VehicleMemory = z.infer<typeof vehicleMemorySchema>;
export type AnimalMemory = z.infer<typeof animalMemorySchema>;
export type OtherMemory = z.infer<typeof otherMemorySchema>;
export type Memory = z.infer<typeof memorySchema>;

/** `GET /api/users/memories`: every live memory by category, plus the amnesia switch. */
export const memoriesSchema = z.object({
  people: z.array(personMemorySchema),
  vehicles: z.array(vehicleMemorySchema),
  animals: z.array(animalMemorySchema),
  general: z.array(otherMemorySchema),
  is_amnesia_mode_enabled: z.boolean(),
});
export type Memories = z.infer<typeof memoriesSchema>;

export const memoriesQuerySchema = z.strictObject({
  force: z
    .enum(['true', 'false'], { message: 'force is true or false' })
    .optional()
    .transform((v) => v === 'true'),
});

const required = (label: string) =>
  singleLineText(
    label,
    z
      .string({ message: `${label} is required` })
      .trim()
      .min(1, `${label} is required`)
      .max(MEMORY_FIELD_MAX, `${label} is at most ${MEMORY_FIELD_MAX} characters`),
  );
const optionalField = (label: string) =>
  singleLineText(
    label,
    z.string().trim().max(MEMORY_FIELD_MAX, `${label} is at most ${MEMORY_FIELD_MAX} characters`),
  )
    .nullish()
    .transform((v) => (v ? v : null));

const commonInput = {
  notes: multiLineText(
    'notes',
    z.string().trim().max(MEMORY_TEXT_MAX, `notes are at most ${MEMORY_TEXT_MAX} characters`),
  )
    .nullish()
    .transform((v) => (v ? v : null)),
  /** null (or absent on create) makes the memory long-term. */
  expiration: memoryExpirationSchema.nullish(),
  property_associations: z
    .array(z.uuid({ message: 'property_associations holds site uuids' }))
    .max(MEMORY_MAX_SITES, `at most ${MEMORY_MAX_SITES} properties`)
    .optional(),
};

/** The fields of each category, as created; updates accept any subset. */
export const memoryInputSchemas = {
  people: z.strictObject({ name: required('name'), ...commonInput }),
  vehicles: z.strictObject({
    owner: optionalField('owner'),
    make: optionalField('make'),
    model: optionalField('model'),
    year: z
      .number({ message: 'year must be a number' })
      .int('year must be a whole number')
      .min(VEHICLE_YEAR_MIN, `year is ${VEHICLE_YEAR_MIN} to ${VEHICLE_YEAR_MAX}`)
      .max(VEHICLE_YEAR_MAX, `year is ${VEHICLE_YEAR_MIN} to ${VEHICLE_YEAR_MAX}`)
      .nullish()
      .transform((v) => v ?? null),
    color: optionalField('color'),
    ...commonInput,
  }),
  animals: z.strictObject({ name: required('name'), species: optionalField('species'), ...commonInput }),
  other: z.strictObject({
    text: multiLineText(
      'text',
      z
        .string({ message: 'text is required' })
        .trim()
        .min(1, 'text is required')
        .max(MEMORY_TEXT_MAX, `text is at most ${MEMORY_TEXT_MAX} characters`),
    ),
    ...commonInput,
  }),
} as const;
export type MemoryInput<C extends MemoryCategory = MemoryCategory> = z.output<(typeof memoryInputSchemas)[C]>;

/**
 * The body of create and update as the wire sees it: any category's fields (checked against the path's
 * category by the server, so a vehicle field on a person is a 400 naming it).
 */
export const memoryBodySchema = z.strictObject({
  name: singleLineText('name').optional(),
  owner: singleLineText('owner').nullish(),
  make: singleLineText('make').nullish(),
  model: singleLineText('model').nullish(),
  year: z.number().nullish(),
  color: singleLineText('color').nullish(),
  species: singleLineText('species').nullish(),
  text: multiLineText('text').optional(),
  notes: multiLineText('notes').nullish(),
  expiration: memoryExpirationSchema.nullish(),
  property_associations: z.array(singleLineText('property_associations')).optional(),
});
export type MemoryBody = z.input<typeof memoryBodySchema>;

export const memoryImageUploadSchema = z.object({ image: memoryImageSchema });
