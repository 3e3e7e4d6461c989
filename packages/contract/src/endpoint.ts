import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint:
 * - `public`: anyone;
 * - `bearer`: a valid ID token;
 * - `verified`: a valid ID token whose email is verified (or exempt);
 * - `admin`: the operator's admin token (`npm run admin`).
 */
export type EndpointAccess = 'public' | 'bearer' | 'verified' | 'admin';

export interface Endpoint {
  method: HttpMethod;
  /** Fastify-style path with `:param` segments. */
  path: string;
  access: EndpointAccess;
  summary: string;
  tags: readonly string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** HTTP status of a success; 200 when absent. */
  successStatus?: number;
  /** The spec §8 text every failure of this call answers with. */
  failureMessage?: string;
}

/** Keeps literal types while checking the shape. */
export function defineEndpoints<const T extends Record<string, Endpoint>>(endpoints: T): T {
  return endpoints;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
type InferIn<S> = S extends z.ZodType ? z.input<S> : undefined;

export type EndpointResponse<E extends Endpoint> = Infer<E['response']>;
export type EndpointBody<E extends Endpoint> = InferIn<E['body']>;
export type EndpointQuery<E extends Endpoint> = InferIn<E['query']>;
export type EndpointParams<E extends Endpoint> = InferIn<E['params']>;
