// The worker's settings (src/config.ts): an endpoint's share is worked out once, from WEBHOOK_CONCURRENCY unless set,
// and a share larger than the worker's slots is refused at start with a message naming both settings.
import { describe, expect, it } from 'vitest';
import { loadWebhooksConfig } from '../src/config.js';

const base = { DATABASE_URL: 'postgres://127.0.0.1/x', REDIS_URL: 'redis://127.0.0.1:6379' };

describe('webhook worker settings', () => {
  it('gives an endpoint a fifth of the slots by default, one while it fails', () => {
    expect(loadWebhooksConfig(base)).toMatchObject({
      WEBHOOK_CONCURRENCY: 50,
      WEBHOOK_ENDPOINT_CONCURRENCY: 10,
      WEBHOOK_FAILING_ENDPOINT_CONCURRENCY: 1,
    });
    expect(loadWebhooksConfig({ ...base, WEBHOOK_CONCURRENCY: '200' }).WEBHOOK_ENDPOINT_CONCURRENCY).toBe(40);
    expect(loadWebhooksConfig({ ...base, WEBHOOK_CONCURRENCY: '3' }).WEBHOOK_ENDPOINT_CONCURRENCY).toBe(1);
  });

  it('takes a share that is set, and holds the failing share to it', () => {
    expect(
      loadWebhooksConfig({ ...base, WEBHOOK_ENDPOINT_CONCURRENCY: '4', WEBHOOK_FAILING_ENDPOINT_CONCURRENCY: '9' }),
    ).toMatchObject({ WEBHOOK_ENDPOINT_CONCURRENCY: 4, WEBHOOK_FAILING_ENDPOINT_CONCURRENCY: 4 });
  });

  it('refuses a share larger than the worker, naming both settings', () => {
    expect(() =>
      loadWebhooksConfig({ ...base, WEBHOOK_CONCURRENCY: '10', WEBHOOK_ENDPOINT_CONCURRENCY: '20' }),
    ).toThrow(/WEBHOOK_ENDPOINT_CONCURRENCY: is 20, more than WEBHOOK_CONCURRENCY \(10\)/);
  });
});
