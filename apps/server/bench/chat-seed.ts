import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChatRepository } from '../src/modules/chat/chat.repository.js';
import { createDatabase, pgliteDirFor } from '../src/platform/db/client.js';
import { postJson, startBenchServer } from './harness.js';

export interface SeededConversation {
  dataDir: string;
  email: string;
  password: string;
  /** Sign in on the server now running on that data directory. */
  authOn(base: string): Promise<{ authorization: string }>;
}

/**
 * A data directory whose user has `count` chat messages: the server creates the user, stops, and the
 * messages go in through the chat repository (the embedded database has one process at a time).
 */
export async function seedConversation(count: number): Promise<SeededConversation> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hs-bench-chat-'));
  const email = `bench-history-${Date.now()}@example.com`;
  const password = 'bench password';
  const first = await startBenchServer({ DATA_DIR: dataDir });
  let userId: string;
  try {
    const session = await postJson<{ idToken: string }>(`${first.base}/api/auth/sign-up`, {
      email,
      password,
    });
    const profile = await postJson<{ data: { user_uuid: string } }>(
      `${first.base}/api/users`,
      { timezone: 'Europe/Berlin' },
      { authorization: `Bearer ${session.idToken}` },
    );
    userId = profile.data.user_uuid;
  } finally {
    await first.stop();
  }

  const database = await createDatabase({ url: process.env.DATABASE_URL, pgliteDir: pgliteDirFor(dataDir) });
  try {
    const repo = createChatRepository(database.db);
    const start = Date.now() - count * 60_000;
    for (let offset = 0; offset < count; offset += 1_000) {
      const rows = Array.from({ length: Math.min(1_000, count - offset) }, (_, i) => {
        const n = offset + i;
        return {
          role: n % 2 ? ('agent' as const) : ('user' as const),
          text: n % 2 ? `Nothing unusual at the front door (${n}).` : `Anything at the door? (${n})`,
          sentAt: new Date(start + n * 60_000),
        };
      });
      await repo.insertMany(userId, rows);
    }
  } finally {
    await database.close();
  }

  return {
    dataDir,
    email,
    password,
    async authOn(base) {
      const session = await postJson<{ idToken: string }>(`${base}/api/auth/sign-in`, { email, password });
      return { authorization: `Bearer ${session.idToken}` };
    },
  };
}
