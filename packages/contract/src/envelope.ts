import { z } from 'zod';

/** Every successful JSON answer: `{ success: true, data }` (DESIGN.md "Envelope"). */
export function okEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

/** Every failure: `{ success: false, message, code }`, plus field details for invalid input. */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.string(),
  details: z
    .array(z.object({ field: z.string(), message: z.string() }))
    .optional()
    .describe('For invalid input: one entry per rejected field'),
  retryAfterSeconds: z.number().int().optional().describe('With 429: seconds until a retry may succeed'),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/**
 * docs/product.md §3 names only `hasMore`. Lists answer it by reading one row past the page, so no list pays for a
 * count of everything the user has; `total` is there only where a list knows it for free.
 */
export const paginationSchema = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int().optional(),
  hasMore: z.boolean(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** `{ success: true }` alone, for calls whose answer is the status (e.g. DELETE /api/users). */
export const successOnlySchema = z.object({ success: z.literal(true) });

/** `{ success, message }` answers named by docs/product.md (PUT /api/users/settings, camera settings). */
export function messageEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), message: z.string(), data });
}
