import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';

const toBytes = (d: string | ArrayBuffer | ArrayBufferView): string | Uint8Array =>
  typeof d === 'string'
    ? d
    : d instanceof ArrayBuffer
      ? new Uint8Array(d)
      : new Uint8Array(d.buffer, d.byteOffset, d.byteLength);

class Sha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret ? createHmac('sha256', toBytes(secret)) : createHash('sha256');
  }
  update(data: string | ArrayBuffer | ArrayBufferView) {
    this.hash.update(toBytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

/** The payload of an `aws-chunked` body (streamed uploads with a trailing checksum): `<hex size>[;ext]\r\n<data>\r\n`… */
function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(body.subarray(at, eol).toString().split(';')[0]!, 16);
    if (!size) break;
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export const FAKE_S3_CREDENTIALS = {
  accessKeyId: 'AKIATESTFAKE',
  secretAccessKey: 'fake-secret-key-for-tests',
};

/**
 * A tiny S3-compatible server on 127.0.0.1 (path-style): PUT, GET, HEAD, DELETE of objects, ListObjectsV2 and
 * DeleteObjects, and presigned GETs checked like S3 does (signature recomputed, expiry enforced → 403).
 */
export async function startFakeS3(region = 'us-east-1') {
  const objects = new Map<string, { body: Buffer; contentType: string; modifiedAt: Date }>();
  const signer = new SignatureV4({ credentials: FAKE_S3_CREDENTIALS, region, service: 's3', sha256: Sha256 });

  const read = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });

  async function presignedOk(url: URL, host: string): Promise<'ok' | 'expired' | 'bad'> {
    const q = Object.fromEntries(url.searchParams);
    const date = q['X-Amz-Date'];
    const expires = Number(q['X-Amz-Expires']);
    if (!date || !expires || !q['X-Amz-Signature']) return 'bad';
    const signingDate = new Date(
      date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
    );
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams)
      if (!k.startsWith('X-Amz-') || k === 'X-Amz-Content-Sha256') query[k] = v;
    const payload = q['X-Amz-Content-Sha256'];
    const [hostname, port] = host.split(':');
    const again = await signer.presign(
      {
        method: 'GET',
        protocol: 'http:',
        hostname: hostname!,
        port: Number(port),
        path: decodeURIComponent(url.pathname),
        query,
        headers: { host, ...(payload ? { 'x-amz-content-sha256': payload } : {}) },
      },
      {
        signingDate,
        expiresIn: expires,
        unhoistableHeaders: new Set(['x-amz-content-sha256']),
        unsignableHeaders: new Set(['x-amz-content-sha256']),
      },
    );
    if (again.query?.['X-Amz-Signature'] !== q['X-Amz-Signature']) return 'bad';
    return signingDate.getTime() + expires * 1000 < Date.now() ? 'expired' : 'ok';
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const [, bucket, ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      const id = `${bucket}/${key}`;
      const body = await read(req);
      const xml = (status: number, text: string) => {
        res.writeHead(status, { 'content-type': 'application/xml' });
        res.end(`<?xml version="1.0" encoding="UTF-8"?>${text}`);
      };
      if (url.searchParams.has('X-Amz-Signature')) {
        const verdict = await presignedOk(url, req.headers.host ?? '');
        if (verdict !== 'ok')
          return xml(403, `<Error><Code>AccessDenied</Code><Message>${verdict}</Message></Error>`);
      } else if (!String(req.headers.authorization ?? '').includes(FAKE_S3_CREDENTIALS.accessKeyId)) {
        return xml(403, '<Error><Code>AccessDenied</Code></Error>');
      }
      if (req.method === 'POST' && url.searchParams.has('delete')) {
        for (const m of body.toString().matchAll(/<Key>([^<]+)<\/Key>/g)) objects.delete(`${bucket}/${m[1]}`);
        return xml(200, '<DeleteResult></DeleteResult>');
      }
      if (req.method === 'GET' && !key && url.searchParams.get('list-type') === '2') {
        const prefix = url.searchParams.get('prefix') ?? '';
        const keys = [...objects.entries()]
          .filter(([k]) => k.startsWith(`${bucket}/${prefix}`))
          .map(([k, o]) => ({ key: k.slice(bucket!.length + 1), modifiedAt: o.modifiedAt }));
        return xml(
          200,
          `<ListBucketResult><Name>${bucket}</Name><Prefix>${prefix}</Prefix><KeyCount>${keys.length}</KeyCount><IsTruncated>false</IsTruncated>${keys
            .map(
              (k) =>
                `<Contents><Key>${k.key}</Key><LastModified>${k.modifiedAt.toISOString()}</LastModified></Contents>`,
            )
            .join('')}</ListBucketResult>`,
        );
      }
      if (req.method === 'PUT') {
        objects.set(id, {
          body: req.headers['content-encoding']?.includes('aws-chunked') ? unchunk(body) : body,
          modifiedAt: new Date(),
          contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
        });
        res.writeHead(200, { etag: '"x"' });
        return res.end();
      }
      if (req.method === 'DELETE') {
        objects.delete(id);
        res.writeHead(204);
        return res.end();
      }
      const object = objects.get(id);
      if (!object) return xml(404, '<Error><Code>NoSuchKey</Code></Error>');
      res.writeHead(200, { 'content-type': object.contentType, 'content-length': object.body.length });
      res.end(req.method === 'HEAD' ? undefined : object.body);
    })().catch((err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
