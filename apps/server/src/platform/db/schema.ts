/**
 * The database schema, one file per owning module (`schema/<module>.ts`, the module whose repository writes
 * those tables: docs/architecture.md "One owner per table"). This file only gathers them for Drizzle and
 * drizzle-kit.
 */
export * from './schema/auth.js';
export * from './schema/users.js';
export * from './schema/signup.js';
export * from './schema/notifications.js';
export * from './schema/sites.js';
export * from './schema/cameras.js';
export * from './schema/memories.js';
export * from './schema/ingest.js';
export * from './schema/activities.js';
export * from './schema/recognition.js';
export * from './schema/chat.js';
export * from './schema/highlights.js';
export * from './schema/helper.js';
export * from './schema/billing.js';
export * from './schema/recurring-faces.js';
export * from './schema/watches.js';
export * from './schema/nest.js';
