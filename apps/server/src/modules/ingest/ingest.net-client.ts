import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

/**
 * Test clients for camera ingest that choose their source address (`localAddress`), so tests can upload from
 * a 127.x.y.z address other than 127.0.0.1, or from inside a network namespace (run through
 * ingest.net-client.cli.ts). Raw protocol on purpose: the tests read the exact replies (PASV addresses, codes)
 * and send what library clients would not (a NUL in a file name, a cut-off body).
 */

export interface Reply {
  code: number;
  text: string;
}

/** A line-oriented control connection (FTP or SMTP): sends a line, reads one (possibly multi-line) reply. */
class Control {
  private buffer = '';
  private readonly waiting: ((reply: Reply) => void)[] = [];
  private readonly replies: Reply[] = [];
  private closedWith: Error | undefined;

  private constructor(readonly socket: Socket) {
    socket.setEncoding('latin1');
    let lines: string[] = [];
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, end).replace(/\r$/, '');
        this.buffer = this.buffer.slice(end + 1);
        lines.push(line);
        // A reply ends with its line "NNN text"; the lines before it are "NNN-text" or free text.
        const last = /^(\d{3}) /.exec(line) ?? /^(\d{3})$/.exec(line);
        if (!last) continue;
        const reply = { code: Number(last[1]), text: lines.join('\n') };
        lines = [];
        const next = this.waiting.shift();
        if (next) next(reply);
        else this.replies.push(reply);
      }
    });
    socket.on('error', (err) => (this.closedWith = err));
    socket.on('close', () => {
      this.closedWith ??= new Error('connection closed');
      for (const w of this.waiting.splice(0)) w({ code: 0, text: this.closedWith.message });
    });
  }

  static async open(host: string, port: number, localAddress?: string): Promise<Control> {
    const socket = connect({ host, port, ...(localAddress ? { localAddress } : {}) });
    await once(socket, 'connect');
    const control = new Control(socket);
    await control.read();
    return control;
  }

  read(): Promise<Reply> {
    const ready = this.replies.shift();
    if (ready) return Promise.resolve(ready);
    if (this.closedWith && this.socket.destroyed)
      return Promise.resolve({ code: 0, text: this.closedWith.message });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  send(line: string): Promise<Reply> {
    this.socket.write(`${line}\r\n`, 'latin1');
    return this.read();
  }

  close(): void {
    this.socket.destroy();
  }
}

export interface FtpTarget {
  host: string;
  port: number;
  localAddress?: string;
  username: string;
  password: string;
}

export interface FtpSession {
  /** Sends a command and answers its reply. */
  send(line: string): Promise<Reply>;
  /**
   * PASV or EPSV, then STOR of `bytes` through the data connection: to the address of the PASV reply (so the
   * test proves it reachable), or for EPSV to the control connection's host.
   */
  store(name: string, bytes: Buffer, mode?: 'PASV' | 'EPSV'): Promise<StoreResult>;
  close(): void;
}

export interface StoreResult {
  /** The PASV/EPSV reply. */
  passive: Reply;
  /** The address the data connection went to (PASV: the reply's; EPSV: the control host). */
  dataHost?: string;
  /** The STOR's final reply (or its first, when that refused it). */
  reply: Reply;
}

export async function ftpLogin(target: FtpTarget): Promise<FtpSession> {
  const control = await Control.open(target.host, target.port, target.localAddress);
  const user = await control.send(`USER ${target.username}`);
  const pass = user.code === 331 ? await control.send(`PASS ${target.password}`) : user;
  if (pass.code !== 230) {
    control.close();
    throw Object.assign(new Error(`FTP login: ${pass.text}`), { code: pass.code });
  }
  await control.send('TYPE I');
  return {
    send: (line) => control.send(line),
    async store(name, bytes, mode = 'PASV') {
      const passive = await control.send(mode);
      let dataHost: string;
      let dataPort: number;
      if (mode === 'PASV') {
        const m = /\((\d+),(\d+),(\d+),(\d+),(\d+),(\d+)\)/.exec(passive.text);
        if (passive.code !== 227 || !m) return { passive, reply: passive };
        dataHost = m.slice(1, 5).join('.');
        dataPort = Number(m[5]) * 256 + Number(m[6]);
      } else {
        const m = /\(\|\|\|(\d+)\|\)/.exec(passive.text);
        if (passive.code !== 229 || !m) return { passive, reply: passive };
        dataHost = target.host;
        dataPort = Number(m[1]);
      }
      const data = connect({
        host: dataHost,
        port: dataPort,
        ...(target.localAddress ? { localAddress: target.localAddress } : {}),
      });
      data.on('error', () => undefined);
      await once(data, 'connect');
      const first = await control.send(`STOR ${name}`);
      if (first.code !== 150 && first.code !== 125) {
        data.destroy();
        return { passive, dataHost, reply: first };
      }
      data.end(bytes);
      return { passive, dataHost, reply: await control.read() };
    },
    close: () => control.close(),
  };
}

export interface SmtpTarget {
  host: string;
  port: number;
  localAddress?: string;
  username: string;
  password: string;
}

export interface MailAttachment {
  /** Written into the part's headers as given (RFC 2231 percent-encoded, so any byte can be sent). */
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** One mail with AUTH PLAIN: answers the reply to its end of data (250 stored, 554 refused…). */
export async function smtpSend(
  target: SmtpTarget,
  mail: { from: string; subject: string; attachments: MailAttachment[] },
): Promise<Reply> {
  const control = await Control.open(target.host, target.port, target.localAddress);
  try {
    const expect = async (line: string, code: number) => {
      const reply = await control.send(line);
      if (reply.code !== code) throw Object.assign(new Error(`SMTP ${line}: ${reply.text}`), reply);
      return reply;
    };
    await expect('EHLO camera.test', 250);
    const plain = Buffer.from(`\0${target.username}\0${target.password}`).toString('base64');
    await expect(`AUTH PLAIN ${plain}`, 235);
    await expect('MAIL FROM:<cam@camera.test>', 250);
    await expect(`RCPT TO:<${target.username}@homesitter.test>`, 250);
    await expect('DATA', 354);
    const boundary = `b${randomBytes(8).toString('hex')}`;
    const encodeName = (name: string) =>
      Array.from(Buffer.from(name, 'utf8'))
        .map((b) =>
          /[A-Za-z0-9._-]/.test(String.fromCharCode(b))
            ? String.fromCharCode(b)
            : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
        )
        .join('');
    const lines = [
      `From: ${mail.from}`,
      `To: ${target.username}@homesitter.test`,
      `Subject: ${mail.subject}`,
      'MIME-Version: 1.0',
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain',
      '',
      'Motion detected',
      ...mail.attachments.flatMap((a) => [
        `--${boundary}`,
        `Content-Type: ${a.contentType}`,
        'Content-Transfer-Encoding: base64',
        `Content-Disposition: attachment; filename*=utf-8''${encodeName(a.filename)}`,
        '',
        ...(a.bytes.toString('base64').match(/.{1,76}/g) ?? []),
      ]),
      `--${boundary}--`,
      '.',
    ];
    return await control.send(lines.join('\r\n'));
  } finally {
    control.socket.end('QUIT\r\n');
    control.close();
  }
}

export interface HttpTarget {
  url: string;
  localAddress?: string;
  username: string;
  password: string;
}

/** A multipart/form-data body with `camera_name` and the files, the file names written as given. */
export function multipartBody(cameraName: string, files: { name: string; bytes: Buffer }[]) {
  const boundary = `----homesitter${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="camera_name"\r\n\r\n${cameraName}\r\n`,
    ),
  ];
  for (const f of files)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
        'latin1',
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs a (possibly cut-off) multipart body with HTTP Basic; answers the status and the parsed JSON body. */
export function httpUpload(
  target: HttpTarget,
  form: { body: Buffer; contentType: string },
): Promise<{ status: number; body: { message?: string; data?: { upload_ids: string[] } } }> {
  return new Promise((resolve, reject) => {
    const auth = Buffer.from(`${target.username}:${target.password}`).toString('base64');
    const req = request(
      target.url,
      {
        method: 'POST',
        ...(target.localAddress ? { localAddress: target.localAddress } : {}),
        headers: {
          authorization: `Basic ${auth}`,
          'content-type': form.contentType,
          'content-length': form.body.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as never });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: { message: text } });
          }
        });
      },
    );
    req.on('error', reject);
    req.end(form.body);
  });
}
