// The engine's LISTEN connection broken (its backend terminated, as a server restart does), again and again: one
// LISTEN connection after each, and no pool slot lost. Found by review: pg told each break twice, and the engine
// listened again for each telling, never releasing the broken connection: after two or three breaks the pool was dry.
// And a second review: the stopped engine gave the connection back with its listener on, which released it again
// (and crashed the process) when that connection broke in the pool later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import { OUTBOX_CHANNEL } from '../src/data/webhook-registry.js';
import type { DeliveryEngine } from '../src/delivery/engine.js';
import { type OwnDatabase, ownDatabase, ownRedisPrefix, testEngine, waitFor } from './harness.js';

let db: OwnDatabase;
let engine: DeliveryEngine;
/** The test's own queries, on connections apart from the engine's pool (which would reuse the one it means to cut). */
let admin: Pool;

beforeAll(async () => {
  db = await ownDatabase('listen');
  admin = createPool(db.url, 2, 'test-listen-admin');
  // No rounds meanwhile: the pool's connections are the engine's LISTEN alone, once its first round has run.
  engine = testEngine(db.pool, ownRedisPrefix('listen'), { dispatchEveryMs: 600_000 });
  await engine.start();
});
afterAll(async () => {
  await engine?.stop();
  await admin?.end();
  await db?.drop();
});

/** The backends of this database whose last statement was the engine's LISTEN. */
async function listeners(): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = $1',
    [`LISTEN ${OUTBOX_CHANNEL}`],
  );
  return rows.map((r) => r.pid);
}

const checkedOut = () => db.pool.totalCount - db.pool.idleCount;

describe('the engine LISTEN connection, broken three times', () => {
  it('is listened on again once each time, and the pool keeps its slots', async () => {
    const [first] = (await waitFor('the LISTEN connection', async () => {
      const l = await listeners();
      return l.length === 1 ? l : undefined;
    })) as number[];
    // Its first round over, the engine holds the LISTEN connection alone.
    await waitFor('the first round to end', () => checkedOut() === 1);
    let pid = first!;
    for (let round = 0; round < 3; round++) {
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      const again = (await waitFor(`LISTEN again after break ${round + 1}`, async () => {
        const l = await listeners();
        return l.length > 0 && !l.includes(pid) ? l : undefined;
      })) as number[];
      pid = again[0]!;
      // A second too many would come a second after the first: none does.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await listeners()).toEqual([pid]);
      expect(checkedOut()).toBe(1);
    }
  }, 60_000);

  it('once the engine has stopped, its old LISTEN connection breaking in the pool harms nothing', async () => {
    const [mine] = await listeners();
    const other = testEngine(db.pool, ownRedisPrefix('listen-stop'), { dispatchEveryMs: 600_000 });
    await other.start();
    const both = (await waitFor('two engines listening', async () => {
      const l = await listeners();
      return l.length === 2 ? l : undefined;
    })) as number[];
    const its = both.find((pid) => pid !== mine)!;
    await other.stop();
    // Its connection, back in the engine's pool, broken there.
    await admin.query('SELECT pg_terminate_backend($1)', [its]);
    await new Promise((r) => setTimeout(r, 1_500));
    // The pool goes on (the broken connection dropped), the first engine still listening alone.
    expect((await db.pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
    expect((await listeners()).length).toBe(1);
  }, 60_000);
});
