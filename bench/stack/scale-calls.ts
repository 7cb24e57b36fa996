// The calls bench:scale makes through the gateway: the system started as npm start runs it (processes under the
// Supervisor, as in bench:readpath), keys sampled from the store, and each call type replayed at 1 connection and
// at many.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Pool } from '@pra/platform';
import { replay, type LoadResult } from '@pra/platform/bench';
// Outside the kernel's ephemeral range: a port from listen(0) was seen taken by an outgoing connection before the
// service bound it (a gateway restarting on EADDRINUSE for minutes while other work ran).
import { freePort } from '@pra/platform/testing';
import { Supervisor } from '../../services/stack/src/supervisor.js';
import { startSystem } from '../../services/stack/src/system.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export const CALLS = ['address', 'owner', 'parcel', 'type-ahead'] as const;
export type Call = (typeof CALLS)[number];
export type Paths = Record<Call, string[]>;
export interface CallFigures {
  one: LoadResult;
  many: LoadResult;
}

/** Plans plays no part in these calls; the gateway answers its routes 503, which no call here reaches. */
const PROCESSES = ['account-billing', 'lookup', 'autocomplete', 'gateway'] as const;

/** Runs `fn` with the system up on this database (request logs at the default level, as npm start runs it). */
export async function withSystem<T>(
  databaseUrl: string,
  redis: { url: string; prefix: string },
  log: (line: string) => void,
  fn: (gatewayUrl: string) => Promise<T>,
): Promise<T> {
  const supervisor = new Supervisor({ cwd: root, nodeArgs: ['--import', 'tsx'], log, stdout: 'ignore' });
  try {
    const system = await startSystem({
      placement: 'processes',
      supervisor,
      only: PROCESSES,
      // Five processes compiling TypeScript at once on a shared 2-core machine: a minute was seen not to suffice.
      readyTimeoutMs: 180_000,
      ports: {
        gateway: await freePort(),
        lookup: await freePort(),
        autocomplete: await freePort(),
        billing: await freePort(),
        admin: await freePort(),
        plans: 0,
      },
      firstInternalPort: 0,
      databaseUrl,
      redisUrl: redis.url,
      redisPrefix: redis.prefix,
      gatewayKey: randomUUID() + randomUUID(),
      adminToken: randomUUID(),
      publicBaseUrl: '/api/v1',
    });
    return await fn(system.gatewayUrl);
  } finally {
    await supervisor.stop();
  }
}

/**
 * SYSTEM sampling reads only the sampled pages (BERNOULLI reads the whole table: minutes at 5,000,000 records), at a
 * share that yields about 4x the keys asked for at any size, so every size draws a sample of the same shape; the
 * rows are then ordered by a hash of their id, because a LIMIT over the sample in page order would keep the table's
 * first pages (the generator writes state by state). REPEATABLE: the same store gives the same keys on every run.
 */
const samplePercent = (keys: number, rows: number) => Math.min(100, ((4 * keys) / Math.max(rows, 1)) * 100);

/** Keystrokes per sampled line: typed from 3 characters to the whole line (SPEC 4.6: at least 3). */
const TYPED_LINES_SHARE = 20;

export async function samplePaths(pool: Pool, records: number, keys: number): Promise<Paths> {
  const pct = samplePercent(keys, records);
  const { rows: props } = await pool.query<{ line_key: string; unit_key: string; zip: string; apn: string }>(
    `SELECT line_key, unit_key, zip, apn FROM records.properties TABLESAMPLE SYSTEM ($1) REPEATABLE (11)
      WHERE source LIKE 'synthetic:%' ORDER BY md5(id::text) LIMIT $2`,
    [pct, keys],
  );
  const { rows: owners } = await pool.query<{ last_name_key: string; state: string }>(
    `SELECT last_name_key, state FROM records.owners TABLESAMPLE SYSTEM ($1) REPEATABLE (11)
      WHERE coalesce(last_name_key, '') <> '' ORDER BY md5(property_id::text || ':' || seq) LIMIT $2`,
    [pct, keys],
  );
  const q = encodeURIComponent;
  const typed = props
    .slice(0, Math.max(1, Math.round(keys / TYPED_LINES_SHARE)))
    .flatMap((r) => Array.from({ length: r.line_key.length - 2 }, (_, i) => r.line_key.slice(0, i + 3)))
    .filter((t) => t.trim().length >= 3);
  return {
    address: props.map(
      (r) =>
        `/api/v1/property/address?address=${q(r.line_key + (r.unit_key ? ` APT ${r.unit_key}` : ''))}&zip=${r.zip}`,
    ),
    owner: owners.map((r) => `/api/v1/property/owner?lastName=${q(r.last_name_key)}&state=${r.state}`),
    parcel: props.map((r) => `/api/v1/property/parcel?apn=${q(r.apn)}`),
    'type-ahead': typed.map((t) => `/api/v1/property/autocomplete?q=${q(t)}`),
  };
}

/**
 * Each call type in turn: a warm-up at `connections` (the first calls on a store read its pages from disk; the
 * figures are about a warm system), then `duration` seconds at 1 connection (latency) and at `connections`
 * (throughput, and latency under load).
 */
export async function measureCalls(
  gatewayUrl: string,
  paths: Paths,
  key: string,
  o: { duration: number; connections: number; warmup: number; label: string; log: (line: string) => void },
): Promise<Record<Call, CallFigures>> {
  const out = {} as Record<Call, CallFigures>;
  for (const call of CALLS) {
    const run = (connections: number, duration: number) =>
      replay(`${call}, ${o.label}, ${connections} conn`, gatewayUrl, paths[call], { connections, duration, key });
    o.log(`${o.label}: ${call} (${paths[call].length} distinct paths): warm-up, 1 connection, ${o.connections}`);
    if (o.warmup > 0) await run(o.connections, o.warmup);
    const one = await run(1, o.duration);
    const many = await run(o.connections, o.duration);
    for (const r of [one, many]) if (r.errors > 0) o.log(`${r.name}: ${r.errors} non-2xx or failed`);
    out[call] = { one, many };
  }
  return out;
}
