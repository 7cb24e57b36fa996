// The express side of the endpoint table (@pra/core/endpoints): a service gives one handler per endpoint it owns
// (the compiler checks that none is missing) and every path and alias of the table is routed to it, with its method
// and its path parameters (`/webhooks/{id}` as `/webhooks/:id`); any other method on the path is a 405 naming the
// ones it takes.
import type { Express, RequestHandler } from 'express';
import {
  BASE_PATH,
  expressPath,
  servedPaths,
  type EndpointKeyOf,
  type HttpMethod,
  type ServedPath,
  type ServiceName,
} from '@pra/core/endpoints';
import { allowHeader, methodNotAllowed } from '@pra/core/errors';
import { meteredHeadNotAllowed, sendError } from './http.js';

/** A handler per endpoint; it is told the path it serves (an alias is billed under its own path). */
export type EndpointHandlers<S extends ServiceName> = { [K in EndpointKeyOf<S>]: (path: string) => RequestHandler };

/** Any method a path does not take: 405 with `Allow` naming those it takes. */
const onlyMethods =
  (methods: readonly HttpMethod[]): RequestHandler =>
  (req, res) =>
    sendError(res, 'method_not_allowed', methodNotAllowed(req.method, methods), req.requestId, {
      allow: allowHeader(methods),
    });

export function mountEndpoints<S extends ServiceName>(app: Express, service: S, handlers: EndpointHandlers<S>): void {
  const byPath = new Map<string, ServedPath[]>();
  for (const p of servedPaths()) {
    if (p.endpoint.service !== service) continue;
    const at = byPath.get(p.path) ?? [];
    byPath.set(p.path, [...at, p]);
  }
  for (const [path, served] of byPath) {
    const full = expressPath(BASE_PATH + path);
    for (const p of served) {
      const make = (handlers as Record<string, ((path: string) => RequestHandler) | undefined>)[p.key];
      if (!make) throw new Error(`${service} has no handler for ${p.method} ${p.path}`);
      if (p.method === 'POST') app.post(full, make(p.path));
      else if (p.method === 'DELETE') app.delete(full, make(p.path));
      else {
        // A HEAD would be charged and return no records: metered paths answer it 405 (express routes HEAD to GET).
        if (p.endpoint.access === 'metered') app.head(full, meteredHeadNotAllowed);
        app.get(full, make(p.path));
      }
    }
    // A path that takes GET answers HEAD through it (above); every other method is a 405 naming the ones it takes.
    app.route(full).all(onlyMethods(served.map((p) => p.method)));
  }
}
