import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/logger.js';
import type { IngestService } from './ingest.service.js';
import { startFtpIngest, type FtpIngestServer } from './ftp.server.js';
import { startSmtpIngest, type SmtpIngestServer } from './smtp.server.js';

export interface IngestServers {
  ftpPort: number;
  smtpPort: number;
  /** Stops taking uploads and lets the ones in progress finish; call before the app closes. */
  close(): Promise<void>;
}

/** Only a pair of both files turns TLS on. */
function tlsFiles(cert: string | undefined, key: string | undefined) {
  return cert && key ? { certFile: cert, keyFile: key } : undefined;
}

/** Config values a caller may replace (tests: port 0 and their own passive range). */
export type IngestServerPorts = Partial<
  Pick<Config, 'FTP_PORT' | 'INGEST_SMTP_PORT' | 'FTP_PASV_MIN' | 'FTP_PASV_MAX' | 'FTP_PUBLIC_HOST' | 'HOST'>
>;

/** Starts the camera FTP and SMTP servers beside the HTTP API (main.ts, when INGEST_ENABLED; tests). */
export async function startIngestServers(
  deps: {
    ingest: IngestService;
    verify: (username: string, password: string) => Promise<string | null>;
    log: Logger;
    config: Config;
  },
  overrides: IngestServerPorts = {},
): Promise<IngestServers> {
  const c = { ...deps.config, ...overrides };
  const { ingest: service, verify: verifyUploadLogin, log } = deps;
  let ftp: FtpIngestServer | undefined;
  let smtp: SmtpIngestServer | undefined;
  try {
    ftp = await startFtpIngest({
      ingest: service,
      verify: verifyUploadLogin,
      log,
      host: c.HOST,
      port: c.FTP_PORT,
      pasvMin: c.FTP_PASV_MIN,
      pasvMax: c.FTP_PASV_MAX,
      publicHost: c.FTP_PUBLIC_HOST,
      pasvPerUser: c.FTP_PASV_PER_USER,
      pasvPerAddress: c.FTP_PASV_PER_ADDRESS,
      tls: tlsFiles(c.FTP_TLS_CERT, c.FTP_TLS_KEY),
    });
    smtp = await startSmtpIngest({
      ingest: service,
      verify: verifyUploadLogin,
      log,
      host: c.HOST,
      port: c.INGEST_SMTP_PORT,
      serverName: c.PUBLIC_HOST,
      dataDir: c.DATA_DIR,
      maxBytes: c.INGEST_MAX_BYTES,
      tls: tlsFiles(c.INGEST_SMTP_TLS_CERT, c.INGEST_SMTP_TLS_KEY),
    });
  } catch (err) {
    await ftp?.close(0);
    throw err;
  }
  const started = { ftp, smtp };
  return {
    ftpPort: started.ftp.port,
    smtpPort: started.smtp.port,
    async close() {
      await Promise.all([started.ftp.close(), started.smtp.close()]);
    },
  };
}
