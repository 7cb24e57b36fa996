// Rate limits across gateway replicas: two real gateway processes share Redis, one with its clock 5 s ahead.
// A client alternates between them at 2 requests/s for 66 s against a limit of 5 per minute: counted on Redis's
// clock, never more than 5 are admitted in any 60 s (with the gateways' own clocks, the skewed one admitted
// again 55 s after the window filled).
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@pra/platform/testing';
import { createPool, type Pool } from '@pra/platform';
import { startProcess, type Started } from '@pra/platform/bench';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { setAccountLimits } from '@pra/account-billing/domain';
import { WINDOW_MS } from '@pra/gateway-plugin';

const LIMIT = 5;
const SKEW = fileURLToPath(new URL('./skew-clock.mjs', import.meta.url));
let pool: Pool;
let f: BillingFixture;
let upstream: Server;
let gateways: Started[] = [];
let key: string;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 2);
  const prefix = `${inject('redisPrefix')}rr${randomBytes(3).toString('hex')}:`;
  f = await billingFixture(pool, inject('redisUrl'), prefix);
  const a = await f.fundedAccount(0, { tier: 'enterprise' });
  await setAccountLimits(f.deps, a.accountId, { ratePerMinute: LIMIT, dailyQuota: null });
  key = a.key;
  // The service behind the gateways: what it answers does not matter here, only what the gateways admit.
  // A stand-in for autocomplete (a limited path: /usage is outside the limits): what the gateway admits is all this
  // test looks at (an empty body, not JSON that the served OpenAPI document would check as an answer).
  upstream = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  const env = {
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: prefix,
    GATEWAY_HMAC_KEY: randomBytes(32).toString('hex'),
    GATEWAY_PORT: '0',
    UPSTREAM_AUTOCOMPLETE: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    LOG_LEVEL: 'silent',
  };
  gateways = await Promise.all([
    startProcess('gateway/local/src/server.ts', env),
    startProcess('gateway/local/src/server.ts', { ...env, CLOCK_SKEW_MS: '5000' }, { nodeArgs: ['--import', SKEW] }),
  ]);
}, 60_000);

afterAll(async () => {
  for (const g of gateways) g.stop();
  await new Promise((r) => upstream.close(r));
  await f.close();
  await pool.end();
});

describe('rate limit across two gateway replicas, one clock 5 s ahead', () => {
  it(`never admits more than ${LIMIT} in any 60 s`, async () => {
    // Each admission happened in Redis between the request's send and its answer: [sent, answered].
    const admitted: [number, number][] = [];
    let refused = 0;
    const started = Date.now();
    for (let i = 0; Date.now() - started < WINDOW_MS + 6_000; i++) {
      const port = gateways[i % 2]!.port;
      const sent = Date.now();
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/property/autocomplete?q=ab`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const text = await res.text();
      if (res.status === 429) {
        refused++;
        expect(res.headers.get('ratelimit-remaining')).toBe('0');
      } else {
        expect(res.status, text).toBe(204);
        expect(Number(res.headers.get('ratelimit-limit'))).toBe(LIMIT);
        admitted.push([sent, Date.now()]);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    // The window filled at once and frees 60 s after its first admission, not before. Admissions i and i+N were
    // decided at most (answer of i+N - send of i) apart: that span must be at least 60 s, whatever the latency.
    expect(admitted.length).toBeGreaterThanOrEqual(LIMIT + 1);
    // Within 66 s, at most two windows' worth admitted, and the rest refused (counted, not required to pass a number
    // that a loaded machine, sending fewer requests in the 66 s, might not reach).
    expect(admitted.length).toBeLessThanOrEqual(2 * LIMIT);
    expect(refused).toBeGreaterThan(0);
    for (let i = 0; i + LIMIT < admitted.length; i++) {
      expect(admitted[i + LIMIT]![1] - admitted[i]![0], `admissions ${i} and ${i + LIMIT}`).toBeGreaterThanOrEqual(
        WINDOW_MS,
      );
    }
  }, 120_000);
});
