import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PlansResponse } from '@pra/core/contracts';
import { startApp, type RunningApp } from '@pra/platform/testing';
import { createPlansApp } from '../src/app.js';

let app: RunningApp;
beforeAll(async () => {
  app = await startApp(
    createPlansApp({ purchaseUrl: 'https://example.com/buy', publicBaseUrl: 'https://api.example.com/api/v1' }),
  );
});
afterAll(() => app.close());

describe('plans service', () => {
  it('publishes the plan table of SPEC 2.6 without authentication', async () => {
    const res = await app.get('/api/v1/plans');
    expect(res.status).toBe(200);
    const body = PlansResponse.parse(res.body);
    expect(body.plans.map((p) => [p.plan, p.records, p.price, p.per_record, p.custom])).toEqual([
      ['free', 100, '$0/month', 'none stated', false],
      ['starter', 5000, '$249/month', '$0.050', false],
      ['growth', 25000, '$499/month', '$0.020', false],
      ['pro', 100000, '$999/month', '$0.010', false],
      ['scale', 500000, '$2,499/month', '$0.005', false],
      // Custom (SPEC 2.6): null records, never a 0 a client could take for "no records".
      ['enterprise', null, 'contact sales', 'volume pricing', true],
    ]);
    expect(body.plans.every((p) => p.valid_days === 30)).toBe(true);
    expect(body.purchase_url).toBe('https://example.com/buy');
    expect(body.marketplace_plans.length).toBeGreaterThan(0);
  });

  it('serves the generated OpenAPI 3.0.3 document at /openapi.yaml', async () => {
    for (const path of ['/openapi.yaml', '/api/v1/openapi.yaml']) {
      const res = await fetch(app.url + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/yaml/);
      const doc = parse(await res.text());
      expect(doc.openapi).toBe('3.0.3');
      expect(doc.servers[0].url).toBe('https://api.example.com/api/v1');
      expect(Object.keys(doc.paths)).toContain('/plans');
    }
  });
});
