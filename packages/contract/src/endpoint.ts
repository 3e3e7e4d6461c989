import type { z } from 'zod';
import type { ApiRoute, ApiRouteName, ApiRoutes } from './routes.runtime.js';

/** One call of the API: its route (method, path, access) and what it takes and answers. */
export interface Endpoint extends ApiRoute {
  summary: string;
  tags: readonly string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** HTTP status of a success; 200 when absent. */
  successStatus?: number;
  /** The docs/product.md §8 text every failure of this call answers with. */
  failureMessage?: string;
}

/**
 * Keeps literal types while checking the shape. Each endpoint is named after its entry in the route table
 * and carries that entry's method, path and access unchanged (spread it: `...apiRoutes.signIn`).
 */
export function defineEndpoints<
  const T extends { [K in keyof T]: K extends ApiRouteName ? Endpoint & ApiRoutes[K] : never },
>(endpoints: T): T {
  return endpoints;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
type InferIn<S> = S extends z.ZodType ? z.input<S> : undefined;

export type EndpointResponse<E extends Endpoint> = Infer<E['response']>;
export type EndpointBody<E extends Endpoint> = InferIn<E['body']>;
export type EndpointQuery<E extends Endpoint> = InferIn<E['query']>;
export type EndpointParams<E extends Endpoint> = InferIn<E['params']>;
