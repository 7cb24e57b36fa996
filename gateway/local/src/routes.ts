// The routes of gateway/kong/kong.yml: path prefix -> upstream, with the service's timeouts. Kong matches the
// longest prefix; so does this. Routes without a service (the catch-all that answers unknown paths) are Kong's own.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';

const Plugin = z.object({ name: z.string(), config: z.record(z.string(), z.unknown()).optional() });
const KongRoute = z.object({
  name: z.string(),
  paths: z.array(z.string().startsWith('/')),
  methods: z.array(z.string()).optional(),
  plugins: z.array(Plugin).optional(),
});
export const KongConfig = z.object({
  _format_version: z.literal('3.0'),
  services: z.array(
    z.object({
      name: z.string(),
      url: z.string().url(),
      connect_timeout: z.number().int().positive().default(60_000),
      read_timeout: z.number().int().positive().default(60_000),
      write_timeout: z.number().int().positive().default(60_000),
      retries: z.number().int().min(0).default(5),
      routes: z.array(KongRoute),
      plugins: z.array(Plugin).optional(),
    }),
  ),
  routes: z.array(KongRoute).optional(),
  plugins: z.array(Plugin).optional(),
});
export type KongConfig = z.infer<typeof KongConfig>;

export interface Route {
  prefix: string;
  service: string;
  upstream: string;
  methods: ReadonlySet<string>;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  /** Further tries of a connection that could not be opened (Kong's `retries`); never of a request that was sent. */
  retries: number;
  /** The largest request body taken (request-size-limiting: the route's own, else the global one). */
  maxBodyBytes: number;
}

const UNITS: Record<string, number> = { bytes: 1, kilobytes: 1024, megabytes: 1024 * 1024 };

/** The limit of a request-size-limiting plugin among `plugins`, in bytes; undefined without one. */
function sizeLimit(plugins: z.infer<typeof Plugin>[] | undefined): number | undefined {
  const c = plugins?.find((p) => p.name === 'request-size-limiting')?.config;
  if (!c) return undefined;
  return Number(c.allowed_payload_size ?? 128) * (UNITS[String(c.size_unit ?? 'megabytes')] ?? 1024 * 1024);
}

export const KONG_YML = fileURLToPath(new URL('../../kong/kong.yml', import.meta.url));

export const readKongConfig = (file = KONG_YML): KongConfig => KongConfig.parse(parse(readFileSync(file, 'utf8')));

/** Reads the routes; `upstreams` overrides a service's URL (kong.yml names Kubernetes hosts). */
export function loadRoutes(upstreams: Record<string, string> = {}, file = KONG_YML): Route[] {
  const config = readKongConfig(file);
  const globalLimit = sizeLimit(config.plugins) ?? Number.POSITIVE_INFINITY;
  return config.services
    .flatMap((s) =>
      s.routes.flatMap((r) =>
        r.paths.map((prefix) => ({
          prefix,
          service: s.name,
          upstream: upstreams[s.name] ?? s.url,
          methods: new Set(r.methods ?? ['GET', 'HEAD']),
          connectTimeoutMs: s.connect_timeout,
          readTimeoutMs: s.read_timeout,
          retries: s.retries,
          maxBodyBytes: sizeLimit(r.plugins) ?? sizeLimit(s.plugins) ?? globalLimit,
        })),
      ),
    )
    .sort((a, b) => b.prefix.length - a.prefix.length);
}

export function matchRoute(routes: readonly Route[], path: string): Route | undefined {
  return routes.find((r) => path === r.prefix || path.startsWith(r.prefix.endsWith('/') ? r.prefix : `${r.prefix}/`));
}
