// The response check of the suite (check-responses.ts) can fail: a body off the served document, an undeclared
// status and a catch-all answer that is not an ErrorResponse are each refused; a declared one passes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: Server;
let base: string;
const answers: Record<string, [number, unknown?]> = {
  // A held ETag's 304 (issue 38): declared on a metered endpoint, not on /usage.
  '/api/v1/property/owner?lastName=X': [304],
  '/api/v1/usage?304': [304],
  '/api/v1/plans': [200, { plans: 'not a list' }],
  '/api/v1/health': [418, { property: [], status: { code: 418, msg: 'teapot', total: 0 } }],
  '/api/v1/nowhere': [404, { error: 'not found' }],
  '/api/v1/webhooks/wh_1/deliveries': [200, { deliveries: 'not a list', nextCursor: null }],
  '/api/v1/webhooks/wh_1': [418, { property: [], status: { code: 418, msg: 'teapot', total: 0 } }],
  '/api/v1/usage': [
    401,
    { property: [], status: { code: 401, reason: 'unauthorized', msg: 'Missing API key', total: 0 } },
  ],
};
beforeAll(async () => {
  server = createServer((req, res) => {
    const [status, body] = answers[req.url!] ?? [500, {}];
    if (body === undefined) return void res.writeHead(status).end();
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('every response checked against the served OpenAPI document', () => {
  it('refuses a body that does not match', async () => {
    await expect(fetch(`${base}/api/v1/plans`)).rejects.toThrow(/GET \/api\/v1\/plans 200: the body does not match/);
  });
  it('refuses a status the document does not declare for the path', async () => {
    await expect(fetch(`${base}/api/v1/health`)).rejects.toThrow(
      /answered 418, which the served OpenAPI document does not declare/,
    );
  });
  it('checks a path with parameters against its operation (/webhooks/{id}/deliveries), whatever the method', async () => {
    await expect(fetch(`${base}/api/v1/webhooks/wh_1/deliveries`)).rejects.toThrow(
      /GET \/api\/v1\/webhooks\/\{id\}\/deliveries 200: the body does not match/,
    );
    await expect(fetch(`${base}/api/v1/webhooks/wh_1`, { method: 'DELETE' })).rejects.toThrow(
      /DELETE \/api\/v1\/webhooks\/\{id\} answered 418, which the served OpenAPI document does not declare/,
    );
  });
  it('refuses a catch-all answer that is not an ErrorResponse', async () => {
    await expect(fetch(`${base}/api/v1/nowhere`)).rejects.toThrow(/not an ErrorResponse/);
  });
  it('refuses a 304 the document does not declare for the path, and passes a declared one', async () => {
    await expect(fetch(`${base}/api/v1/usage?304`)).rejects.toThrow(/answered 304, which the served OpenAPI document/);
    expect((await fetch(`${base}/api/v1/property/owner?lastName=X`)).status).toBe(304);
  });
  it('passes a declared status with a matching body', async () => {
    expect((await fetch(`${base}/api/v1/usage`)).status).toBe(401);
  });
});
