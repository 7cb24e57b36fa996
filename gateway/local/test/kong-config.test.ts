// kong.yml checked offline (decK cannot be installed here: the Go module proxy refuses github.com/kong/deck):
// its shape, every /api/v1 path of the OpenAPI document routed to the right service, the plugins we rely on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildOpenApiDocument } from '@pra/shared/contracts';
import { KONG_YML, loadRoutes, matchRoute } from '../src/routes.js';

const OWNER: Record<string, string> = {
  '/property/autocomplete': 'autocomplete',
  '/usage': 'account-billing',
  '/plans': 'plans',
};

describe('gateway/kong/kong.yml', () => {
  const routes = loadRoutes();
  it('routes every path of the API to the service that serves it', () => {
    const paths = Object.keys((buildOpenApiDocument() as any).paths) as string[];
    expect(paths.length).toBeGreaterThan(10);
    for (const p of paths) expect(matchRoute(routes, `/api/v1${p}`)?.service, p).toBe(OWNER[p] ?? 'lookup');
    expect(matchRoute(routes, '/openapi.yaml')?.service).toBe('plans');
    expect(matchRoute(routes, '/admin/accounts')).toBeUndefined(); // the admin API is never routed
    expect(matchRoute(routes, '/api/v1/property/addressx')).toBeUndefined();
  });

  it('is declarative config 3.0 with the plugin, a request size limit and OpenTelemetry', () => {
    const doc = parse(readFileSync(KONG_YML, 'utf8'));
    expect(doc._format_version).toBe('3.0');
    const plugins = (doc.plugins as { name: string; config?: any }[]).map((p) => p.name);
    expect(plugins).toEqual(expect.arrayContaining(['pra-gateway', 'request-size-limiting', 'opentelemetry']));
    for (const s of doc.services) for (const r of s.routes) expect(r.strip_path ?? true).toBe(false);
  });
});
