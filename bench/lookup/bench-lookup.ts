// npm run bench:lookup [-- --records 1000000 --duration 20 --connections 32]
// Loads the records once (database property_records_bench), then in one run measures with autocannon:
// (a) a trivial express endpoint (the framework's ceiling), (b) /property/address and /property/owner on the
// lookup service, and (c) the same queries through pgbench (prepared protocol; the database's ceiling), and
// (d) the address lookup again with OpenTelemetry tracing on, every request sampled and exported to a local OTLP
// receiver, against (b) in the same run: the cost of tracing. Services run with the telemetry --import (metrics
// on) and LOG_LEVEL=warn in both, so the difference is tracing alone.
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import {
  loadFigure,
  markdownTable,
  pgbench,
  replay,
  reportFigure,
  startProcess,
  type LoadResult,
} from '@pra/platform/bench';
import { sinkEnv, startOtlpSink } from '@pra/platform/telemetry';
import { createPool, ensureDatabase, withDatabase } from '@pra/platform';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { migrateRecords } from '@pra/ingest/migrate';
import { loadGenerated } from '@pra/ingest/generate';
import { importSample, propertyCount } from '@pra/ingest/load';
import { migrateBilling } from '@pra/account-billing/migrate';
import { billingFixture } from '@pra/account-billing/testing';
import { UsagePipeline } from '@pra/account-billing/pipeline';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '32' },
  },
});
const records = Number(values.records);
const duration = Number(values.duration);
const connections = Number(values.connections);
const dbUrl = withDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, `property_records_bench_${records}`);

type Result = LoadResult;

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisPrefix = `pra_bench_lookup_${Date.now().toString(36)}:`;

async function prepareData() {
  await ensureDatabase(dbUrl);
  const pool = createPool(dbUrl, 4, 'bench');
  await migrateRecords(pool);
  await migrateBilling(pool);
  const have = await propertyCount(pool);
  if (have < records) {
    console.error(`loading ${records - have} records into ${new URL(dbUrl).pathname.slice(1)} (once)`);
    if (have === 0) await importSample(pool, 'dcTracts');
    const { seconds, rows } = await loadGenerated(pool, { seed: 1, count: records - have });
    console.error(`ingest: ${rows} records in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds)}/s`);
    await pool.query('VACUUM ANALYZE records.properties');
    await pool.query('VACUUM ANALYZE records.owners');
  }
  // Keys to replay: properties drawn at random (row-level sampling, so one building's units are not over-drawn),
  // each asked for by its full address with its unit, the way a client looks up a known property.
  const addr = await pool.query<{ line_key: string; zip: string; unit_key: string }>(
    `SELECT line_key, zip, unit_key FROM records.properties TABLESAMPLE BERNOULLI (1) REPEATABLE (7) WHERE source LIKE 'synthetic:%' LIMIT 2000`,
  );
  const owners = await pool.query<{ last_name_key: string; state: string }>(
    `SELECT last_name_key, state FROM records.owners TABLESAMPLE BERNOULLI (1) REPEATABLE (7) WHERE last_name_key IS NOT NULL LIMIT 2000`,
  );
  await pool.query('DROP TABLE IF EXISTS public.bench_keys');
  await pool.query(
    `CREATE TABLE public.bench_keys AS SELECT row_number() OVER () AS n, line_key, zip, unit_key FROM unnest($1::text[], $2::text[], $3::text[]) AS t(line_key, zip, unit_key)`,
    [addr.rows.map((r) => r.line_key), addr.rows.map((r) => r.zip), addr.rows.map((r) => r.unit_key)],
  );
  await pool.query('DROP TABLE IF EXISTS public.bench_owner_keys');
  await pool.query(
    `CREATE TABLE public.bench_owner_keys AS SELECT row_number() OVER () AS n, last_name_key, state FROM unnest($1::text[], $2::text[]) AS t(last_name_key, state)`,
    [owners.rows.map((r) => r.last_name_key), owners.rows.map((r) => r.state)],
  );
  // Lookups are measured as clients see them: with a key, charged, the usage pipeline running.
  const billing = await billingFixture(pool, redisUrl, redisPrefix);
  const { key } = await billing.fundedAccount(1_000_000_000);
  const pipeline = new UsagePipeline({ pool, redisUrl, layout: billing.layout, log: () => {} });
  await pipeline.start();
  return {
    addr: addr.rows,
    owners: owners.rows,
    key,
    stop: async () => {
      await pipeline.stop();
      await billing.close();
      await pool.end();
    },
  };
}

async function main() {
  const keys = await prepareData();
  const enc = encodeURIComponent;
  // Spelled three ways, so every request goes through normalisation: as stored, with '#', and in lower case.
  const addressPaths = keys.addr.map((k, i) => {
    const unit = k.unit_key ? [` APT ${k.unit_key}`, ` #${k.unit_key}`, ` unit ${k.unit_key}`][i % 3] : '';
    const line = i % 3 === 2 ? k.line_key.toLowerCase() : k.line_key;
    return `/api/v1/property/address?address=${enc(line + unit)}&zip=${k.zip}`;
  });
  const ownerPaths = keys.owners.map((k) => `/api/v1/property/owner?lastName=${enc(k.last_name_key)}&state=${k.state}`);
  const results: Result[] = [];

  const load = { connections, duration };
  const trivial = await startProcess('bench/lookup/trivial-express.ts', {});
  results.push(await replay('(a) trivial express endpoint', `http://127.0.0.1:${trivial.port}`, ['/ping'], load));
  trivial.stop();

  const serviceEnv = {
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    LOOKUP_PORT: '0',
    INTERNAL_PORT: '0',
    LOG_LEVEL: 'warn',
    OTEL_SERVICE_NAME: 'lookup',
  };
  const lookup = await startProcess('services/lookup/src/server.ts', serviceEnv, { telemetry: true });
  const lookupBase = `http://127.0.0.1:${lookup.port}`;
  const charged = { ...load, key: keys.key };
  await replay('warm-up', lookupBase, addressPaths.slice(0, 200), { ...charged, duration: 2 });
  results.push(await replay('(b) lookup /property/address', lookupBase, addressPaths, charged));
  results.push(await replay('(b) lookup /property/owner', lookupBase, ownerPaths, charged));
  lookup.stop();

  const sink = await startOtlpSink();
  const traced = await startProcess(
    'services/lookup/src/server.ts',
    // A queue big enough that no span is dropped at full load: the cost measured is the cost of keeping them all.
    {
      ...serviceEnv,
      ...sinkEnv(sink.url, 'lookup', 1_000),
      OTEL_BSP_MAX_QUEUE_SIZE: '100000',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
    },
    { telemetry: true },
  );
  const tracedBase = `http://127.0.0.1:${traced.port}`;
  await replay('warm-up', tracedBase, addressPaths.slice(0, 200), { ...charged, duration: 2 });
  const before = sink.received();
  const tracedResult = await replay('(d) lookup /property/address, tracing on', tracedBase, addressPaths, charged);
  results.push(tracedResult);
  traced.stop();
  await new Promise((r) => setTimeout(r, 1_500)); // the last batch
  const spansPerRequest = (sink.received() - before) / Math.max(1, tracedResult.rps * duration);
  await sink.close();

  const n = keys.addr.length;
  results.push(
    pgbench(
      dbUrl,
      '(c) pgbench address query',
      `\\set r random(1, ${n})\nSELECT p.body, t.body, count(*) OVER () FROM records.properties p LEFT JOIN records.tract_profiles t ON t.tract = p.census_tract ` +
        // The line key compared in the "C" collation, as the lookup's statements do: the index is on it (0006).
        `WHERE p.line_key COLLATE "C" = (SELECT line_key FROM public.bench_keys WHERE n = :r) AND p.zip = (SELECT zip FROM public.bench_keys WHERE n = :r)::char(5) AND p.unit_key = (SELECT unit_key FROM public.bench_keys WHERE n = :r) ORDER BY p.unit_key, p.id LIMIT 25 OFFSET 0;\n`,
      { connections, duration },
    ),
  );
  results.push(
    pgbench(
      dbUrl,
      '(c) pgbench owner query',
      `\\set r random(1, ${keys.owners.length})\nWITH k AS (SELECT last_name_key, state FROM public.bench_owner_keys WHERE n = :r), ` +
        `m AS (SELECT DISTINCT o.property_id FROM records.owners o, k WHERE o.last_name_key = k.last_name_key AND o.state = k.state), ` +
        `page AS (SELECT property_id FROM m ORDER BY property_id LIMIT 25) SELECT p.body, t.body, (SELECT count(*) FROM m) FROM page ` +
        `JOIN records.properties p ON p.id = page.property_id LEFT JOIN records.tract_profiles t ON t.tract = p.census_tract ORDER BY p.id;\n`,
      { connections, duration },
    ),
  );

  const base = results[0]!.rps;
  console.log(
    `\n### bench:lookup, ${records.toLocaleString('en-US')} records, ${connections} connections, ${duration} s each`,
  );
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}\n`,
  );
  console.log(
    markdownTable(
      ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx/errors', 'vs trivial express'],
      results.map((r) => [
        r.name,
        Math.round(r.rps).toLocaleString('en-US'),
        r.p50.toFixed(2),
        r.p99.toFixed(2),
        r.errors,
        `${((r.rps / base) * 100).toFixed(0)}%`,
      ]),
    ),
  );
  for (const r of results) reportFigure(loadFigure('lookup', r));
  const untraced = results.find((r) => r.name === '(b) lookup /property/address')!;
  const cost = (1 - tracedResult.rps / untraced.rps) * 100;
  console.log(
    `\ntracing cost: ${cost.toFixed(1)}% of /property/address throughput (target at most 10%), p50 ${untraced.p50.toFixed(2)} -> ${tracedResult.p50.toFixed(2)} ms; ` +
      `${spansPerRequest.toFixed(1)} spans per request reached the OTLP receiver`,
  );
  await keys.stop();
  process.exit(0);
}

main().catch((err) => {
  console.error(`bench failed: ${err.stack ?? err}`);
  process.exit(1);
});
