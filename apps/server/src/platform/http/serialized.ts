import type { Endpoint, EndpointResponse } from '@homesitter/contract';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * A response serialised ahead of time, to be kept in a cache (platform/read-cache.ts): encoded through the
 * endpoint's response schema and made JSON exactly as the routes' serializer (fastify-type-provider-zod)
 * does, so a cached answer is held to the contract like any other, and each hit sends bytes without
 * encoding the same objects again.
 */
export function serializeResponse<E extends Endpoint>(endpoint: E, value: EndpointResponse<E>): Buffer {
  return Buffer.from(JSON.stringify(z.encode(endpoint.response, value)));
}

/** Answers bytes made by `serializeResponse`; Fastify sends a Buffer with its content type as it is. */
export function sendSerialized<E extends Endpoint>(
  _endpoint: E,
  reply: FastifyReply,
  body: Buffer,
): EndpointResponse<E> {
  void reply.type('application/json; charset=utf-8');
  // The handler's declared result is the response object; these are its bytes, encoded by its own schema.
  return body as unknown as EndpointResponse<E>;
}
