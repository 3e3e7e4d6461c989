import { z } from 'zod';
import { defineEndpoints } from './endpoint.js';
import { okEnvelope } from './envelope.js';
import { apiRoutes } from './routes.runtime.js';

/** `GET /api/users/helper`: whether a desktop helper of the account is linked to the server right now. */
export const helperLinkStatusSchema = z.object({
  connected: z
    .boolean()
    .describe(
      'A desktop helper signed in to this account holds its link to the server now (docs/product.md §7 helper)',
    ),
  version: z.string().nullable().describe('Version of the helper heard from last; null when none ever was'),
  last_seen_at: z
    .string()
    .nullable()
    .describe('When a helper of this account was last heard from (about every 30 s while connected)'),
});
export type HelperLinkStatus = z.infer<typeof helperLinkStatusSchema>;

/** One helper build this server hands out: the files in `HELPER_DOWNLOADS_DIR`, and its own OS's, built on demand. */
export const helperDownloadSchema = z.object({
  os: z
    .string()
    .describe('From the file name `homesitter-helper-<os>-<arch>[.exe]`, e.g. linux, macos, windows'),
  arch: z.string().describe('e.g. x64, arm64'),
  url: z.string().describe('Path of the file on this server: `/api/helper/downloads/<file>`'),
  size: z
    .number()
    .int()
    .nullable()
    .describe("Bytes; null for the server's own OS until its first download has built it"),
});
export type HelperDownload = z.infer<typeof helperDownloadSchema>;

/** The desktop helper's JSON calls; its WebSockets are described in docs/stream-cameras.md. */
export const helperEndpoints = defineEndpoints({
  getHelperStatus: {
    ...apiRoutes.getHelperStatus,
    summary:
      'Whether a desktop helper of this account is connected to the server (the web app tells "running but ' +
      'your browser blocks it" from "not running" by it)',
    tags: ['helper'],
    response: okEnvelope(helperLinkStatusSchema),
  },
  listHelperDownloads: {
    ...apiRoutes.listHelperDownloads,
    summary: 'The desktop helper builds this server hands out; empty when none are built',
    tags: ['helper'],
    response: okEnvelope(z.array(helperDownloadSchema)),
  },
});
