import { prepareTestDatabaseTemplate } from './database.js';

/** Makes the migrated database template once, before the test files start (test/database.ts). */
export default async function setup(): Promise<void> {
  await prepareTestDatabaseTemplate();
}
