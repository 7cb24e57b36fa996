// What npm start runs: the webhook delivery worker is one of its processes, on the internal port after plans', with
// the stores and the one-machine setting that lets webhooks reach a receiver on loopback; its configuration (and
// account-billing's, which checks the URLs at creation) parses from exactly what npm start gives it.
import { describe, expect, it } from 'vitest';
import { loadWebhooksConfig } from '@pra/webhooks/config';
import { systemProcesses } from '../src/system.js';

const specs = systemProcesses({
  ports: { gateway: 8080, lookup: 8081, autocomplete: 8082, billing: 8083, plans: 8084, admin: 8090 },
  firstInternalPort: 9464,
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/x',
  redisUrl: 'redis://127.0.0.1:6379',
  redisPrefix: 'p:',
  gatewayKey: 'g'.repeat(32),
  adminToken: 'a'.repeat(32),
  publicBaseUrl: 'http://127.0.0.1:8080/api/v1',
});

describe('npm start', () => {
  it('runs the webhook delivery worker with its stores, the local receivers setting and its own internal port', () => {
    const worker = specs.find((s) => s.name === 'webhooks-worker');
    expect(worker?.entry).toBe('services/webhooks/src/worker.ts');
    const config = loadWebhooksConfig(worker!.env);
    expect(config).toMatchObject({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x',
      REDIS_PREFIX: 'p:',
      WEBHOOKS_ALLOW_INSECURE_LOCAL: true,
      INTERNAL_PORT: 9469,
    });
    const internal = specs.map((s) => s.env.INTERNAL_PORT).filter((p) => p !== undefined);
    expect(new Set(internal).size).toBe(internal.length);
  });

  it("gives account-billing, which checks a webhook URL at creation, the worker's local setting (not the gateway)", () => {
    const local = specs.filter((s) => s.env.WEBHOOKS_ALLOW_INSECURE_LOCAL === '1').map((s) => s.name);
    expect(local).toContain('account-billing');
    expect(local).toContain('webhooks-worker');
    expect(specs.find((s) => s.name === 'gateway')!.env.WEBHOOKS_ALLOW_INSECURE_LOCAL).toBeUndefined();
  });
});
