// The lookup behind the local gateway, in this process, with a ledger writer of its own: what the telemetry tests
// (trace, monitoring metrics) run. Import it after OpenTelemetry has started, as they do with the application.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createPool } from '@pra/platform';
import { billingFixture } from '@pra/account-billing/testing';
import { UsagePipeline } from '@pra/account-billing/pipeline';
import { startSystem } from '../src/system.js';

export async function startInProcessLookup(tag: string, keys: { gatewayKey: string; marketplaceSecret?: string }) {
  const pool = createPool(inject('databaseUrl'), 4);
  const f = await billingFixture(
    pool,
    inject('redisUrl'),
    `${inject('redisPrefix')}${tag}${randomBytes(3).toString('hex')}:`,
  );
  const pipeline = new UsagePipeline({
    pool,
    redisUrl: inject('redisUrl'),
    layout: f.layout,
    log: () => {},
    roles: { ledgerWriter: true, maintenance: false },
  });
  await pipeline.start();
  const system = await startSystem({ placement: 'in-process', pool, billing: f, ...keys, only: ['lookup'] });
  return {
    pool,
    f,
    pipeline,
    system,
    async stop(): Promise<void> {
      await system.stop();
      await pipeline.stop();
      await f.close();
      await pool.end();
    },
  };
}
