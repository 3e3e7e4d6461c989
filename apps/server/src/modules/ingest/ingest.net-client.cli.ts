import { ftpLogin, httpUpload, multipartBody, smtpSend, type FtpTarget } from './ingest.net-client.js';

/**
 * ingest.net-client.ts as a command, for tests that run the client in a network namespace of their own
 * (`ip netns exec <ns> node --import tsx ingest.net-client.cli.ts '<json>'`). Reads one request as JSON
 * (file bytes in base64), prints its result as JSON.
 */
type Request =
  | { kind: 'ftp'; target: FtpTarget; name: string; mode: 'PASV' | 'EPSV'; base64: string }
  | {
      kind: 'smtp';
      target: FtpTarget;
      from: string;
      subject: string;
      filename: string;
      contentType: string;
      base64: string;
    }
  | {
      kind: 'http';
      target: FtpTarget & { url: string };
      cameraName: string;
      name: string;
      base64: string;
    };

async function run(request: Request): Promise<unknown> {
  const bytes = Buffer.from(request.base64, 'base64');
  if (request.kind === 'ftp') {
    const session = await ftpLogin(request.target);
    try {
      return await session.store(request.name, bytes, request.mode);
    } finally {
      session.close();
    }
  }
  if (request.kind === 'smtp')
    return smtpSend(request.target, {
      from: request.from,
      subject: request.subject,
      attachments: [{ filename: request.filename, contentType: request.contentType, bytes }],
    });
  return httpUpload(request.target, multipartBody(request.cameraName, [{ name: request.name, bytes }]));
}

run(JSON.parse(process.argv[2] ?? '{}') as Request).then(
  (result) => process.stdout.write(JSON.stringify(result)),
  (err: unknown) => {
    process.stdout.write(JSON.stringify({ error: String(err) }));
    process.exitCode = 1;
  },
);
