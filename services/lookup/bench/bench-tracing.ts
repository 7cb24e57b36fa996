// npm run bench:tracing [-- --records 100000 --duration 8 --rounds 3 --connections 32]
// What tracing costs the lookup, by part: the address lookup with tracing off, on as deployed (the app's server
// spans plus the pg and ioredis instrumentations), and on with the app's spans only; every request sampled and
// exported over OTLP to a local receiver. The variants alternate for several rounds so that this machine's drift
// falls on all of them alike; the means are compared.
import { parseArgs } from 'node:util';
import { replay, startProcess } from '@pra/platform/bench';
import { sinkEnv, startOtlpSink } from '@pra/platform/telemetry';
import { DEFAULT_REDIS_URL } from '@pra/core/config';
import { billingFixture } from '@pra/account-billing/testing';
import { prepareBenchDatabase } from './bench-database.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
  },
});
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const prefix = `pra_bench_tracing_${Date.now().toString(36)}:`;

async function main(): Promise<void> {
  const { url: dbUrl, pool } = await prepareBenchDatabase(Number(values.records), 2);
  const billing = await billingFixture(pool, redisUrl, prefix);
  const { key } = await billing.fundedAccount(1_000_000_000);
  const { rows } = await pool.query<{ line_key: string; zip: string }>(
    `SELECT line_key, zip FROM records.properties TABLESAMPLE BERNOULLI (1) REPEATABLE (7) WHERE unit_key = '' LIMIT 2000`,
  );
  const paths = rows.map((r) => `/api/v1/property/address?address=${encodeURIComponent(r.line_key)}&zip=${r.zip}`);
  const sink = await startOtlpSink();
  const env = {
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    LOOKUP_PORT: '0',
    OTEL_SERVICE_NAME: 'lookup',
  };
  const traced = {
    ...env,
    ...sinkEnv(sink.url, 'lookup', 1_000),
    OTEL_BSP_MAX_QUEUE_SIZE: '100000',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
  };
  const variants: [string, Record<string, string>][] = [
    ['tracing off', env],
    ['tracing on, as deployed (server spans + pg + ioredis)', traced],
    ["tracing on, the app's server spans only", { ...traced, OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'none' }],
  ];
  const load = { connections: Number(values.connections), duration: Number(values.duration), key };
  const rates = new Map<string, number[]>();
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const [name, e] of variants) {
      const server = await startProcess('services/lookup/src/server.ts', e, { telemetry: true });
      const base = `http://127.0.0.1:${server.port}`;
      await replay('warm-up', base, paths.slice(0, 100), { ...load, duration: 2 });
      const r = await replay(name, base, paths, load);
      server.stop();
      await new Promise((res) => setTimeout(res, 1_500));
      rates.set(name, [...(rates.get(name) ?? []), r.rps]);
      console.error(`round ${round}: ${name}: ${Math.round(r.rps)} req/s`);
    }
  }
  const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
  const off = mean(rates.get('tracing off')!);
  console.log(
    `\n### bench:tracing, ${Number(values.records).toLocaleString('en-US')} records, ${values.rounds} rounds of ${values.duration} s, ${values.connections} connections\n`,
  );
  console.log('| lookup /property/address | mean req/s | rounds | cost |');
  console.log('|---|---:|---|---:|');
  for (const [name] of variants) {
    const all = rates.get(name)!;
    console.log(
      `| ${name} | ${Math.round(mean(all)).toLocaleString('en-US')} | ${all.map(Math.round).join(', ')} | ${((1 - mean(all) / off) * 100).toFixed(1)}% |`,
    );
  }
  await billing.close();
  await pool.end();
  await sink.close();
  process.exit(0);
}

main().catch((err: Error) => {
  console.error(`bench failed: ${err.stack ?? err}`);
  process.exit(1);
});
