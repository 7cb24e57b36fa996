// The routes of gateway/kong/kong.yml: path prefix -> upstream. Kong matches the longest prefix; so does this.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';

const KongConfig = z.object({
  _format_version: z.literal('3.0'),
  services: z.array(
    z.object({
      name: z.string(),
      url: z.string().url(),
      routes: z.array(z.object({ name: z.string(), paths: z.array(z.string().startsWith('/')), methods: z.array(z.string()).optional() })),
    }),
  ),
});

export interface Route {
  prefix: string;
  service: string;
  upstream: string;
  methods: ReadonlySet<string>;
}

export const KONG_YML = fileURLToPath(new URL('../../kong/kong.yml', import.meta.url));

/** Reads the routes; `upstreams` overrides a service's URL (kong.yml names Kubernetes hosts). */
export function loadRoutes(upstreams: Record<string, string> = {}, file = KONG_YML): Route[] {
  const config = KongConfig.parse(parse(readFileSync(file, 'utf8')));
  return config.services
    .flatMap((s) =>
      s.routes.flatMap((r) =>
        r.paths.map((prefix) => ({ prefix, service: s.name, upstream: upstreams[s.name] ?? s.url, methods: new Set(r.methods ?? ['GET', 'HEAD']) })),
      ),
    )
    .sort((a, b) => b.prefix.length - a.prefix.length);
}

export function matchRoute(routes: readonly Route[], path: string): Route | undefined {
  return routes.find((r) => path === r.prefix || path.startsWith(r.prefix.endsWith('/') ? r.prefix : `${r.prefix}/`));
}
