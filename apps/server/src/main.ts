import { setFlagsFromString } from 'node:v8';
import { createServer } from './app.js';
import { createAdapters } from './bootstrap.js';
import type { IngestServers } from './modules/ingest/ingest.servers.js';
import { ConfigError, loadConfig } from './platform/config.js';

// PGlite is a 9 MB WebAssembly module: V8 recompiles its hot functions with TurboFan in the background, by
// default several at once, and each of PostgreSQL's big functions takes tens of MB of compiler memory that
// glibc keeps once freed. One at a time lowers the server's peak RSS by about 50 MB at no measurable cost in
// speed (docs/operations.md, "Memory"). Set before the database compiles its module.
setFlagsFromString('--wasm-num-compilation-tasks=1');

async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await createAdapters(config);
  const { app, modules } = await createServer(deps);

  let ingest: IngestServers | undefined;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    setTimeout(() => {
      app.log.error('requests still running after 25 s; exiting anyway');
      process.exit(1);
    }, 25_000).unref();
    // Then Fastify stops accepting, lets in-flight requests finish and runs the onClose hooks (jobs drain there);
    // the database closes after all of them (onClose hooks run last-added first, so not as one of them).
    // Camera uploads first: no new ones, the running ones finish (they need the jobs and the database).
    (ingest ? ingest.close() : Promise.resolve())
      .then(() => app.close())
      .then(async () => {
        await deps.mailer.close();
        await deps.database.close();
      })
      .then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  if (config.INGEST_ENABLED && !closing) ingest = await modules.ingest.startServers();
  app.log.info(
    {
      url: config.PUBLIC_URL,
      database: deps.database.kind,
      mail: deps.mailer.kind,
      ...(ingest ? { ftpPort: ingest.ftpPort, smtpPort: ingest.smtpPort } : {}),
    },
    'Homesitter is running',
  );
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
