import {
  errorEnvelopeSchema,
  type Endpoint,
  type EndpointAccess,
  type EndpointBody,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResponse,
} from '@homesitter/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** What a verified bearer token says about its caller. */
export interface AuthContext {
  /** The token's `sub`: our identity id, or the external issuer's user id. */
  subject: string;
  email: string;
  emailVerified: boolean;
  /** `local` for our own provider's tokens. */
  issuer: 'local' | 'external';
  /** The raw token, for logging its first characters only. */
  token: string;
  /** When the caller signed in (seconds since the epoch): the token's `auth_time`, else its `iat`. */
  signedInAt?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** The docs/product.md §8 text every failure of this route answers with. */
    failureMessage?: string;
  }
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteRequest<E extends Endpoint> = Omit<FastifyRequest, 'body' | 'query' | 'params'> & {
  body: Out<E['body']>;
  query: Out<E['query']>;
  params: Out<E['params']>;
};

export type RouteHandler<E extends Endpoint> = (
  req: RouteRequest<E>,
  reply: FastifyReply,
) => Promise<EndpointResponse<E>>;

export type AccessGuards = Record<EndpointAccess, onRequestAsyncHookHandler[]>;

/**
 * Registers one contract endpoint: its path, schemas (validation, serialisation, OpenAPI), access guard and
 * §8 failure text all come from `packages/contract`, so a route file only says what the call does.
 */
export interface RouteOptions {
  /** Per-IP limit (@fastify/rate-limit) for calls worth guessing at, such as sign-in. */
  rateLimit?: { max: number; timeWindow: number };
}

export function route<E extends Endpoint>(
  app: FastifyInstance,
  guards: AccessGuards,
  endpoint: E,
  handler: RouteHandler<E>,
  options: RouteOptions = {},
): void {
  const status = endpoint.successStatus ?? 200;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      summary: endpoint.summary,
      tags: [...endpoint.tags],
      ...(endpoint.access === 'public' ? {} : { security: [{ bearerAuth: [] }] }),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      response: { '2xx': endpoint.response, '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema },
    },
    config: {
      ...(endpoint.failureMessage ? { failureMessage: endpoint.failureMessage } : {}),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    },
    // Access is checked before the body is parsed: a caller without a token learns nothing about the input.
    // A copy per route: plugins such as @fastify/rate-limit push their hook into the route's list, and a
    // shared list would carry one route's limit onto every route of that access level.
    onRequest: [...guards[endpoint.access]],
    handler: async (req, reply) => {
      reply.status(status);
      // Fastify has validated body, query and params against the endpoint's own schemas before this runs,
      // so the request matches RouteRequest<E>; TypeScript cannot follow the generic through Fastify.
      return handler(req as unknown as RouteRequest<E>, reply);
    },
  });
}

export type { EndpointBody, EndpointParams, EndpointQuery };

/** The caller of a bearer route; the access guard has run, so it is set. */
export function callerOf(req: { auth: AuthContext | null }): AuthContext {
  if (!req.auth) throw new Error('callerOf() on a route without a bearer guard');
  return req.auth;
}
