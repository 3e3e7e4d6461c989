import { z } from 'zod';
import type { ConfigDir } from '../config-dir.js';

const FILE = 'session.json';

/** What stays on disk between runs: the refresh token (never the short-lived ID token). */
const storedSessionSchema = z.object({
  /** The server the token belongs to: a token of another server is not sent to this one. */
  server_url: z.string(),
  uid: z.string(),
  email: z.string(),
  refresh_token: z.string().min(1),
  saved_at: z.string(),
});
export type StoredSession = z.infer<typeof storedSessionSchema>;

/** `session.json`, mode 0600, replaced atomically on every rotation. */
export interface SessionStore {
  load(): Promise<StoredSession | null>;
  save(session: StoredSession): Promise<void>;
  clear(): Promise<void>;
}

export function createSessionStore(dir: ConfigDir): SessionStore {
  return {
    load: () => dir.readJson(FILE, storedSessionSchema),
    save: (session) => dir.writePrivate(FILE, `${JSON.stringify(session, null, 2)}\n`),
    clear: () => dir.remove(FILE),
  };
}
