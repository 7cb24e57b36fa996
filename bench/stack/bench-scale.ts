// npm run bench:scale [-- --sizes 1000000,5000000 --duration 15 --connections 32 --keys 2000 --warmup 5]
// How the system scales with the store, in one run, size by size (smallest first):
// - the store: the bench database of that size (shared with bench:readpath), reused or built (timed), its bytes per
//   record by table, TOAST and index of schemas records and search, and all in. A size is built only when the disk
//   holds it: the smaller store's bytes per record (all in) x 1.3 against the free space of PostgreSQL's data
//   directory (10,000,000 only when asked for with --sizes);
// - the system started on it as npm start runs it, the type-ahead index completed by the system itself;
// - address, owner, parcel and type-ahead calls through the gateway with keys sampled from the store: p50/p99 and
//   req/s at 1 connection and at 32.
// Then one markdown table on stdout (a column per size, the ratio largest/smallest), the targets, the machine.
// Progress on stderr.
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '@pra/core/config';
import { createPool, withDatabase, type Pool } from '@pra/platform';
import { billingFixture } from '@pra/account-billing/testing';
import { setAccountLimits } from '@pra/account-billing/domain';
import { measureCalls, samplePaths, withSystem, CALLS, type Call } from './scale-calls.js';
import { renderReport, TARGETS, type SizeResult } from './scale-report.js';
import {
  existingStoreEstimate,
  footprint,
  freeDiskBytes,
  openStore,
  recordCount,
  typeAheadIndex,
  type Store,
} from './scale-store.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000000,5000000' },
    /** Seconds of each measured load. */
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '32' },
    /** Distinct keys sampled per call type (type-ahead: the keystrokes of 1 in 20 of them). */
    keys: { type: 'string', default: '2000' },
    /** Seconds of warm-up before each call type. */
    warmup: { type: 'string', default: '5' },
  },
});
const sizes = values.sizes!.split(',').map(Number);
const duration = Number(values.duration);
const connections = Number(values.connections);
const keys = Number(values.keys);
const warmup = Number(values.warmup);
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const log = (l: string) => console.error(`[bench:scale] ${l}`);

function checkArgs(): void {
  const bad = [...sizes, duration, connections, keys].some((n) => !Number.isInteger(n) || n <= 0);
  if (bad || !(warmup >= 0)) throw new Error('--sizes, --duration, --connections and --keys take positive integers');
}

interface Server {
  dataDirectory: string;
  version: string;
}

async function serverFacts(admin: Pool): Promise<Server> {
  const dir = await admin.query<{ data_directory: string }>('SHOW data_directory');
  const version = await admin.query<{ server_version: string }>('SHOW server_version');
  return { dataDirectory: dir.rows[0]!.data_directory, version: version.rows[0]!.server_version };
}

function machineLine(server: Server): string {
  const free = freeDiskBytes(server.dataDirectory);
  const disk = free === undefined ? 'not readable from here' : `${(free / 1e9).toFixed(0)} GB free`;
  return [
    `${cpus().length} cores (${cpus()[0]?.model.trim()})`,
    `${Math.round(totalmem() / 2 ** 30)} GiB RAM`,
    `node ${process.version}`,
    `PostgreSQL ${server.version}`,
    `data directory ${server.dataDirectory}: ${disk}`,
  ].join(', ');
}

/**
 * The bytes per record to plan a build with: the last store measured in this run, else an existing bench store,
 * else the target (which underestimates when the target is not met).
 */
async function estimate(done: SizeResult[], admin: Pool): Promise<{ bytesPerRecord: number; basis: string }> {
  const last = done.at(-1);
  if (last)
    return {
      bytesPerRecord: last.footprint.allIn / last.footprint.records,
      basis: `a record (measured at ${last.records.toLocaleString('en-US')})`,
    };
  return (
    (await existingStoreEstimate(admin)) ?? {
      bytesPerRecord: TARGETS.bytesPerRecord,
      basis: 'a record (the target: no store measured yet)',
    }
  );
}

/** One size: an enterprise key with its limits lifted, the system up, the index complete, the figures. */
async function measureSize(store: Store): Promise<SizeResult> {
  const label = `${store.records.toLocaleString('en-US')} records`;
  const prefix = `pra_bench_scale_${Date.now().toString(36)}:`;
  const billing = await billingFixture(store.pool, redisUrl, prefix);
  try {
    const { key, accountId } = await billing.fundedAccount(1_000_000_000, { tier: 'enterprise' });
    await setAccountLimits(billing.deps, accountId, { ratePerMinute: 100_000_000, dailyQuota: null });
    const records = await recordCount(store.pool);
    const started = performance.now();
    log(`${label}: starting the system`);
    return await withSystem(store.url, { url: redisUrl, prefix }, log, async (gatewayUrl) => {
      // The index first: type-ahead is measured on a complete index, and its build must not share the CPU with
      // the other calls' measurements.
      const index = await typeAheadIndex(store.pool, records, started, log);
      const fp = await footprint(store.pool, records);
      const paths = await samplePaths(store.pool, records, keys);
      const calls = await measureCalls(gatewayUrl, paths, key, { duration, connections, warmup, label, log });
      const counts = Object.fromEntries(CALLS.map((c) => [c, paths[c].length])) as Record<Call, number>;
      return { records: store.records, load: store.load, index, footprint: fp, calls, paths: counts };
    });
  } finally {
    await dropKeys(billing.redis, prefix);
    await billing.close();
  }
}

/** This size's Redis keys (balances, key cache, queues: thousands a run), once its system has stopped. */
async function dropKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (found.length > 0) await redis.unlink(...found);
    cursor = next;
  } while (cursor !== '0');
}

async function main() {
  checkArgs();
  const admin = createPool(withDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, 'postgres'), 1, 'bench');
  const server = await serverFacts(admin);
  const done: SizeResult[] = [];
  const refused: string[] = [];
  for (const records of [...sizes].sort((a, b) => a - b)) {
    const store = await openStore(records, admin, server.dataDirectory, () => estimate(done, admin), log);
    if ('refused' in store) {
      refused.push(store.refused);
      continue;
    }
    try {
      done.push(await measureSize(store));
    } finally {
      await store.pool.end();
    }
  }
  await admin.end();
  const command = `npm run bench:scale -- ${process.argv.slice(2).join(' ')}`.replace(/ -- $/, '');
  console.log(renderReport(done, { machine: machineLine(server), refused, duration, warmup, connections, command }));
  process.exit(0);
}

main().catch((err) => {
  console.error(`bench failed: ${err.stack ?? err}\nIs PostgreSQL and Redis running? npm start brings both up.`);
  process.exit(1);
});
