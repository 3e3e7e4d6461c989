import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a route handler gets: the request, its reply, the path's `:params`, and whether the client left. */
export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  /** Aborts when the client closes the connection before the answer is complete. */
  signal: AbortSignal;
}

export interface Route {
  method: 'GET' | 'POST';
  /** `/jobs/:id/retry` */
  path: string;
  handle(ctx: RouteContext): Promise<void> | void;
}

export interface Router {
  /** The route for a method and path, with its params; null when no route has that path and method. */
  match(method: string, pathname: string): { route: Route; params: Record<string, string> } | null;
}

export function createRouter(routes: readonly Route[]): Router {
  const compiled = routes.map((route) => {
    const names: string[] = [];
    const pattern = route.path.replace(/:(\w+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { route, names, regex: new RegExp(`^${pattern}$`) };
  });
  return {
    match(method, pathname) {
      for (const { route, names, regex } of compiled) {
        if (route.method !== method) continue;
        const m = regex.exec(pathname);
        if (!m) continue;
        const params: Record<string, string> = {};
        names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1]!)));
        return { route, params };
      }
      return null;
    },
  };
}
