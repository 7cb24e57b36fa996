// kong.yml checked offline (decK cannot be installed here: the Go module proxy refuses github.com/kong/deck):
// its shape, every /api/v1 path of the OpenAPI document routed to the right service, the plugins we rely on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  BASE_PATH,
  BATCH_BODY_MAX_BYTES,
  DOCUMENT_PATHS,
  ErrorResponse,
  routedPaths,
  servedPaths,
  tablePathList,
} from '@pra/core/contracts';
import { DEFAULT_REQUEST_POOL_LIMITS } from '@pra/core/config';
import { PRODUCER_COMMAND_WORST_MS } from '@pra/platform';
import { CHARGE_RESOLVE_WITHIN_MS, chargeWorstCaseMs } from '@pra/account-billing/client';
import { KONG_YML, loadRoutes, matchRoute, readKongConfig } from '../src/routes.js';

describe('gateway/kong/kong.yml', () => {
  const routes = loadRoutes();
  it('routes every path of the endpoint table to the service that serves it, and nothing else', () => {
    const table = routedPaths();
    for (const [path, service] of table) expect(matchRoute(routes, path)?.service, path).toBe(service);
    // No route for a path the table does not have (a removed alias left in kong.yml).
    for (const r of routes) expect(table.get(r.prefix), r.prefix).toBe(r.service);
    expect(matchRoute(routes, '/admin/accounts')).toBeUndefined(); // the admin API is never routed
    expect(matchRoute(routes, '/api/v1/property/addressx')).toBeUndefined();
  });

  it("takes each path's methods as the endpoint table says, with room for their bodies", () => {
    // HEAD goes with GET (the plugin answers it 405 where it would be charged or needs a key).
    const withHead = (methods: readonly string[]) => methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
    const paths = tablePathList();
    for (const p of paths) {
      expect([...matchRoute(routes, p.template)!.methods], p.template).toEqual(
        expect.arrayContaining(withHead(p.methods)),
      );
    }
    // A route takes no method that none of its paths takes (the batch POST only, /webhooks GET, POST and DELETE).
    for (const r of routes.filter((x) => !(DOCUMENT_PATHS as readonly string[]).includes(x.prefix))) {
      const under = paths.filter((p) => matchRoute(routes, p.template) === r);
      expect(under.length, r.prefix).toBeGreaterThan(0);
      expect([...r.methods].sort(), r.prefix).toEqual([...new Set(under.flatMap((p) => withHead(p.methods)))].sort());
    }
    expect([...matchRoute(routes, '/api/v1/property/batch')!.methods]).toEqual(['POST']);
    expect([...matchRoute(routes, '/api/v1/property/address')!.methods]).toEqual(['GET', 'HEAD']);
    for (const p of servedPaths().filter((s) => s.endpoint.bodyMaxBytes !== undefined)) {
      const route = matchRoute(routes, BASE_PATH + p.path)!;
      expect(route.maxBodyBytes, p.path).toBeGreaterThanOrEqual(p.endpoint.bodyMaxBytes!);
    }
    const batch = readKongConfig()
      .services.flatMap((s) => s.routes)
      .find((r) => r.paths.includes('/api/v1/property/batch'));
    const limit = batch?.plugins?.find((p) => p.name === 'request-size-limiting')?.config;
    expect(Number(limit?.allowed_payload_size) * 1024).toBeGreaterThanOrEqual(BATCH_BODY_MAX_BYTES);
  });

  it('is declarative config 3.0 with the plugin on every service, a request size limit and OpenTelemetry', () => {
    const doc = parse(readFileSync(KONG_YML, 'utf8'));
    expect(doc._format_version).toBe('3.0');
    const plugins = (doc.plugins as { name: string; config?: any }[]).map((p) => p.name);
    expect(plugins).toEqual(expect.arrayContaining(['request-size-limiting', 'opentelemetry']));
    for (const s of readKongConfig().services)
      expect(
        s.plugins?.map((p) => p.name),
        s.name,
      ).toContain('pra-gateway');
    for (const s of doc.services) for (const r of s.routes) expect(r.strip_path ?? true).toBe(false);
  });

  it("answers an unknown path with the spec's ErrorResponse (a catch-all route), not Kong's own body", () => {
    const catchAll = readKongConfig().routes?.find((r) => r.paths.includes('/'));
    expect(catchAll, 'a route for /').toBeDefined();
    const termination = catchAll!.plugins?.find((p) => p.name === 'request-termination');
    expect(termination?.config).toMatchObject({
      status_code: 404,
      content_type: expect.stringMatching(/^application\/json/),
    });
    const body = ErrorResponse.parse(JSON.parse(String(termination!.config!.body)));
    expect(body).toMatchObject({ property: [], status: { code: 404, reason: 'no_such_endpoint', total: 0 } });
    expect(body.status.msg).toMatch(/No such endpoint/);
    // Kong runs the services' plugins only on their routes: the catch-all never asks for a key or counts a call.
    expect(catchAll!.plugins!.map((p) => p.name)).not.toContain('pra-gateway');
  });

  it('lets conditional requests through (issue 38): If-None-Match reaches the lookup, ETag and the 304 come back', () => {
    const doc = parse(readFileSync(KONG_YML, 'utf8'));
    type Plugin = { name: string; config?: Record<string, any> };
    const all: Plugin[] = [
      ...(doc.plugins ?? []),
      ...(doc.routes ?? []).flatMap((r: { plugins?: Plugin[] }) => r.plugins ?? []),
      ...doc.services.flatMap((s: { plugins?: Plugin[]; routes: { plugins?: Plugin[] }[] }) => [
        ...(s.plugins ?? []),
        ...s.routes.flatMap((r) => r.plugins ?? []),
      ]),
    ];
    const names = (v: unknown) => JSON.stringify(v ?? '').toLowerCase();
    for (const p of all) {
      // A shared cache would answer one account's records to another, and 304s on its own terms.
      expect(p.name, 'no proxy cache of authenticated answers').not.toMatch(/proxy-cache/);
      if (p.name === 'request-transformer') expect(names(p.config?.remove)).not.toContain('if-none-match');
      if (p.name === 'response-transformer') expect(names(p.config?.remove)).not.toContain('etag');
      // No CORS plugin today (browsers call from the API's own origin: /docs); one added must expose the ETag and
      // allow If-None-Match, or a browser client could neither read a tag nor send it.
      if (p.name === 'cors') {
        expect(names(p.config?.exposed_headers)).toContain('etag');
        expect(names(p.config?.headers)).toContain('if-none-match');
      }
    }
  });

  it("starts its own traces: a client's traceparent never decides sampling", () => {
    const doc = parse(readFileSync(KONG_YML, 'utf8'));
    const otel = (doc.plugins as { name: string; config: Record<string, unknown> }[]).find(
      (p) => p.name === 'opentelemetry',
    );
    const propagation = otel?.config.propagation as { extract?: string[]; clear?: string[]; inject?: string[] };
    // Extracting w3c would make Kong obey the client's sampled flag.
    expect(propagation.extract).toEqual([]);
    expect(propagation.inject).toEqual(['w3c']);
    expect(propagation.clear).toEqual(expect.arrayContaining(['tracestate', 'baggage']));
  });

  it('gives up on a service only after the slowest bounded request has been answered (its own 503 arrives first)', () => {
    const pool = DEFAULT_REQUEST_POOL_LIMITS;
    // A statement's longest wait: a connection, the statement timeout, and the pool's client-side slack of 1 s
    // (shared/platform/src/db.ts: query_timeout = statement timeout + 1 s).
    const storeRead = pool.connectTimeoutMs + pool.statementTimeoutMs + 1_000;
    const slowestLookup =
      PRODUCER_COMMAND_WORST_MS + // the billing pre-check: one Redis command (auto-pipelined: behind a batch)
      pool.statementTimeoutMs + // the lookup: one deadline for all its statements (services/lookup lookupDeadlineMs)
      chargeWorstCaseMs(CHARGE_RESOLVE_WITHIN_MS, PRODUCER_COMMAND_WORST_MS) + // the charge, its outcome worked out
      storeRead; // a charge that was a repeat: the records it paid for, read again
    expect(slowestLookup).toBe(25_000);
    const margin = 2_000; // the service's own work around the waits, and the network
    for (const s of readKongConfig().services) {
      expect(s.read_timeout, s.name).toBeGreaterThanOrEqual(slowestLookup + margin);
      expect(s.read_timeout, s.name).toBeGreaterThan(storeRead);
      expect(s.retries, s.name).toBeLessThanOrEqual(2);
    }
    // The local gateway takes its upstream timeouts from the same file.
    for (const r of routes) expect(r.readTimeoutMs, r.prefix).toBeGreaterThanOrEqual(slowestLookup + margin);
  });
});
