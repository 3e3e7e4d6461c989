import { HELPER_SIGN_IN_PATH } from '@homesitter/contract';
import { ConfigError, helpText, loadConfig } from './config.js';
import { startHelper } from './helper.js';
import { createLogger } from './logger.js';
import { HELPER_VERSION } from './version.js';

/** `npm run helper` and the single executable: read the settings, start, stop cleanly on Ctrl-C. */
async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(helpText(HELPER_VERSION));
    return 0;
  }
  if (argv.includes('--version') || argv.includes('-v')) {
    process.stdout.write(`${HELPER_VERSION}\n`);
    return 0;
  }
  const unknown = argv.find((arg) => arg.startsWith('-'));
  if (unknown) {
    process.stderr.write(`Unknown option ${unknown}. Settings are environment variables: see --help.\n`);
    return 2;
  }

  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n\nSee --help for the settings.\n`);
    return 2;
  }
  const log = createLogger(config.LOG_LEVEL);

  let helper;
  try {
    helper = await startHelper({ config, log });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      log.error(
        { port: config.HELPER_PORT },
        `port ${config.HELPER_PORT} is taken: another helper probably runs already (see http://127.0.0.1:${config.HELPER_PORT}/status), or set HELPER_PORT`,
      );
      return 1;
    }
    throw err;
  }
  log.info(
    { url: helper.url, server: config.HOMESITTER_URL, config: config.HELPER_CONFIG_DIR },
    `Homesitter helper ${HELPER_VERSION} is running`,
  );
  log.info({}, `to sign in, open ${helper.url}${HELPER_SIGN_IN_PATH}`);

  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      log.info({ signal }, 'stopping (recording in progress is finished and kept)');
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await helper.stop();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `The helper failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
