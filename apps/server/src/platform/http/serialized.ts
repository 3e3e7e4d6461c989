import { gzipSync } from 'node:zlib';
import type { Endpoint, EndpointResponse } from '@homesitter/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/** Below this a gzip header and its CPU are not worth the bytes saved. */
const GZIP_MIN_BYTES = 8 * 1024;

/**
 * A response serialised ahead of time, to be kept in a cache (platform/read-cache.ts): encoded through the
 * endpoint's response schema and made JSON exactly as the routes' serializer (fastify-type-provider-zod)
 * does, so a cached answer is held to the contract like any other, and each hit sends bytes without
 * encoding the same objects again.
 *
 * Large lists (the memories list with its signed photo links is hundreds of KB) are also sent gzipped to
 * clients that accept it, as browsers and the mobile HTTP stacks all do. The gzip is made once per
 * serialised answer, so a cached list is compressed once and served compressed on every hit.
 */
export class SerializedResponse {
  #gzip: Buffer | undefined;

  constructor(readonly json: Buffer) {}

  get byteLength(): number {
    return this.json.byteLength;
  }

  gzip(): Buffer {
    // Level 4: nearly all of level 6's saving on JSON, in about half the time.
    this.#gzip ??= gzipSync(this.json, { level: 4 });
    return this.#gzip;
  }
}

export function serializeResponse<E extends Endpoint>(
  endpoint: E,
  value: EndpointResponse<E>,
): SerializedResponse {
  return new SerializedResponse(Buffer.from(JSON.stringify(z.encode(endpoint.response, value))));
}

function acceptsGzip(req: FastifyRequest): boolean {
  const accepted = req.headers['accept-encoding'];
  return (
    typeof accepted === 'string' && /\bgzip\b/.test(accepted) && !/\bgzip\s*;\s*q=0(\.0+)?\b/.test(accepted)
  );
}

/** Answers a response made by `serializeResponse`; Fastify sends a Buffer with its content type as it is. */
export function sendSerialized<E extends Endpoint>(
  _endpoint: E,
  req: FastifyRequest,
  reply: FastifyReply,
  body: SerializedResponse,
): EndpointResponse<E> {
  void reply.type('application/json; charset=utf-8');
  let bytes = body.json;
  if (body.byteLength >= GZIP_MIN_BYTES) {
    void reply.header('vary', 'accept-encoding');
    if (acceptsGzip(req)) {
      bytes = body.gzip();
      void reply.header('content-encoding', 'gzip');
    }
  }
  // The handler's declared result is the response object; these are its bytes, encoded by its own schema.
  return bytes as unknown as EndpointResponse<E>;
}
