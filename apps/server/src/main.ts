import { setFlagsFromString } from 'node:v8';
import { createServer } from './app.js';
import { createAdapters } from './bootstrap.js';
import type { IngestServers } from './modules/ingest/ingest.servers.js';
import { ConfigError, loadConfig } from './platform/config.js';
import { createShutdown } from './platform/shutdown.js';

// PGlite is a 9 MB WebAssembly module: V8 recompiles its hot functions with TurboFan in the background, by
// default several at once, and each of PostgreSQL's big functions takes tens of MB of compiler memory that
// glibc keeps once freed. One at a time lowers the server's peak RSS by about 50 MB at no measurable cost in
// speed (docs/operations.md, "Memory"). Set before the database compiles its module.
setFlagsFromString('--wasm-num-compilation-tasks=1');

async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await createAdapters(config);
  const { app, modules } = await createServer(deps);

  // Started after the HTTP server; a signal while they start waits for them, then drains them.
  let ingest: Promise<IngestServers | undefined> = Promise.resolve(undefined);
  let stopping = false;
  const shutdown = createShutdown({
    app,
    log: app.log,
    closeIngest: async () => (await ingest.catch(() => undefined))?.close(),
    // The database closes after everything that may still write (onClose hooks run last-added first, so
    // it is not one of them).
    closeRest: async () => {
      await deps.mailer.close();
      await deps.database.close();
    },
    graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000,
    timeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    exit: (code) => process.exit(code),
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.on(signal, () => {
      stopping = true;
      shutdown(signal);
    });

  await app.listen({ port: config.PORT, host: config.HOST });
  if (config.INGEST_ENABLED && !stopping) ingest = modules.ingest.startServers();
  const servers = await ingest;
  app.log.info(
    {
      url: config.PUBLIC_URL,
      database: deps.database.kind,
      mail: deps.mailer.kind,
      ...(servers ? { ftpPort: servers.ftpPort, smtpPort: servers.smtpPort } : {}),
    },
    'Homesitter is running',
  );
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
