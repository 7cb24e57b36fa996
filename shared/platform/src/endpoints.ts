// The express side of the endpoint table (@pra/core/endpoints): a service gives one handler per endpoint it owns
// (the compiler checks that none is missing) and every path and alias of the table is routed to it.
import type { Express, RequestHandler } from 'express';
import { BASE_PATH, servedPaths, type EndpointKeyOf, type ServiceName } from '@pra/core/endpoints';
import { meteredHeadNotAllowed, postOnly } from './http.js';

/** A handler per endpoint; it is told the path it serves (an alias is billed under its own path). */
export type EndpointHandlers<S extends ServiceName> = { [K in EndpointKeyOf<S>]: (path: string) => RequestHandler };

export function mountEndpoints<S extends ServiceName>(app: Express, service: S, handlers: EndpointHandlers<S>): void {
  for (const p of servedPaths()) {
    if (p.endpoint.service !== service) continue;
    const make = (handlers as Record<string, ((path: string) => RequestHandler) | undefined>)[p.key];
    if (!make) throw new Error(`${service} has no handler for ${p.path}`);
    const full = BASE_PATH + p.path;
    // A POST endpoint (the batch) takes POST only: any other method is a 405 naming it.
    if (p.endpoint.method === 'POST') {
      app.post(full, make(p.path));
      app.all(full, postOnly);
      continue;
    }
    // A HEAD would be charged and return no records: metered paths answer it 405 (express routes HEAD to GET).
    if (p.endpoint.access === 'metered') app.head(full, meteredHeadNotAllowed);
    app.get(full, make(p.path));
  }
}
