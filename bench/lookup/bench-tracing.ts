// npm run bench:tracing [-- --records 100000 --duration 8 --rounds 3 --connections 32 --profile DIR]
// What tracing costs the lookup, by part: the address lookup with tracing off; on as the chart deploys it (the
// app's server spans plus the pg and ioredis instrumentations, sampled as charts/property-api/values.yaml sets
// telemetry.tracesSampler and tracesSamplerArg); the same with every request sampled; and every request sampled
// with the app's spans only. Spans are exported over OTLP to a local receiver. The variants alternate for several
// rounds so that this machine's drift falls on all of them alike; the means are compared.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { cpuMeter, markdownTable, replay, startProcess } from '@pra/platform/bench';
import { sinkEnv, startOtlpSink } from '@pra/platform/telemetry';
import { COLLECTOR_CONFIGS, findCollector, startCollector } from '@pra/platform/testing';
import { DEFAULT_REDIS_URL } from '@pra/core/config';
import { billingFixture } from '@pra/account-billing/testing';
import { prepareBenchDatabase } from './bench-database.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    /** Write the lookup's CPU profile (node --cpu-prof) of each variant into this directory. */
    profile: { type: 'string' },
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
  // As deployed: OTLP/HTTP with protobuf (the SDK's default) to a real collector when one is built; else the in-repo
  // receiver, which reads OTLP JSON only.
  const otelcol = findCollector();
  const collector = otelcol ? await startCollector(otelcol, join(COLLECTOR_CONFIGS, 'bench-config.yaml')) : undefined;
  const sink = collector ? undefined : await startOtlpSink();
  const receiver = collector
    ? { ...sinkEnv(collector.endpoint, 'lookup', 1_000), OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }
    : sinkEnv(sink!.url, 'lookup', 1_000);
  console.error(
    collector
      ? `spans go to pra-otelcol (${otelcol}) over OTLP/HTTP protobuf, as deployed`
      : 'pra-otelcol not built (observability/collector/build.sh): spans go to the in-repo receiver over OTLP/HTTP JSON',
  );
  const env = {
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    LOOKUP_PORT: '0',
    OTEL_SERVICE_NAME: 'lookup',
  };
  const traced = {
    ...env,
    ...receiver,
    OTEL_BSP_MAX_QUEUE_SIZE: '100000',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
  };
  const chart = chartSampling();
  const variants: [string, Record<string, string>][] = [
    ['tracing off', env],
    [
      `as the chart deploys it: server spans + pg + ioredis, ${chart.OTEL_TRACES_SAMPLER} ${chart.OTEL_TRACES_SAMPLER_ARG}`,
      { ...traced, ...chart },
    ],
    ['every request sampled: server spans + pg + ioredis', traced],
    ["every request sampled: the app's server spans only", { ...traced, OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'none' }],
  ];
  const load = { connections: Number(values.connections), duration: Number(values.duration), key };
  const rates = new Map<string, number[]>();
  const failed = new Map<string, number>();
  /** CPU microseconds per request: the lookup's, and the collector's (on this machine too, unlike production). */
  const cpuUs = new Map<string, number[]>();
  const receiverUs = new Map<string, number[]>();
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const [name, e] of variants) {
      // No ledger writer runs here: the outbox is emptied before each run, or it would reach its high-water mark
      // (BILLING_OUTBOX_LIMIT) and every charge would be a quick 503.
      await billing.redis.del(billing.layout.shards[0]!.outbox);
      const profile = values.profile
        ? ['--cpu-prof', `--cpu-prof-dir=${join(values.profile, name.replace(/[^a-z0-9]+/gi, '-'))}`]
        : [];
      const server = await startProcess('services/lookup/src/server.ts', e, { telemetry: true, nodeArgs: profile });
      const base = `http://127.0.0.1:${server.port}`;
      await replay('warm-up', base, paths.slice(0, 100), { ...load, duration: 2 });
      const cpu = cpuMeter({ lookup: () => [server.pid], receiver: () => (collector ? [collector.pid] : []) });
      cpu.start();
      const r = await replay(name, base, paths, load);
      const used = cpu.stop();
      const requests = r.rps * load.duration;
      cpuUs.set(name, [...(cpuUs.get(name) ?? []), (used.lookup! * 1e6) / requests]);
      receiverUs.set(name, [...(receiverUs.get(name) ?? []), (used.receiver! * 1e6) / requests]);
      server.stop();
      await new Promise((res) => setTimeout(res, 1_500));
      rates.set(name, [...(rates.get(name) ?? []), r.rps]);
      failed.set(name, (failed.get(name) ?? 0) + r.errors);
      console.error(`round ${round}: ${name}: ${Math.round(r.rps)} req/s`);
    }
  }
  const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
  const off = mean(rates.get('tracing off')!);
  console.log(
    `\n### bench:tracing, ${Number(values.records).toLocaleString('en-US')} records, ${values.rounds} rounds of ${values.duration} s, ${values.connections} connections, node ${process.version}; spans to ${collector ? 'pra-otelcol over OTLP/HTTP protobuf' : 'the in-repo receiver over OTLP/HTTP JSON'}\n`,
  );
  const offCpu = mean(cpuUs.get('tracing off')!);
  const cells = variants.map(([name]) => {
    const all = rates.get(name)!;
    return [
      name,
      Math.round(mean(all)).toLocaleString('en-US'),
      all.map(Math.round).join(', '),
      `${((1 - mean(all) / off) * 100).toFixed(1)}%`,
      Math.round(mean(cpuUs.get(name)!)),
      `${((mean(cpuUs.get(name)!) / offCpu - 1) * 100).toFixed(1)}%`,
      Math.round(mean(receiverUs.get(name)!)),
      failed.get(name) ?? 0,
    ];
  });
  console.log(
    markdownTable(
      [
        'lookup /property/address',
        'mean req/s',
        { name: 'rounds', text: true },
        'cost',
        'lookup CPU µs/request',
        'cost in lookup CPU',
        'collector CPU µs/request',
        'non-2xx',
      ],
      cells,
    ),
  );
  if ([...failed.values()].some((n) => n > 0))
    console.log('\n**Some answers were not 2xx: the rates above are not those of lookups.**');
  await billing.close();
  await pool.end();
  await sink?.close();
  await collector?.stop();
  process.exit(0);
}

/** The sampler the chart's default values give every process. */
function chartSampling(): { OTEL_TRACES_SAMPLER: string; OTEL_TRACES_SAMPLER_ARG: string } {
  const values = parse(readFileSync(new URL('../../charts/property-api/values.yaml', import.meta.url), 'utf8')) as {
    telemetry: { tracesSampler: string; tracesSamplerArg: string };
  };
  return {
    OTEL_TRACES_SAMPLER: values.telemetry.tracesSampler,
    OTEL_TRACES_SAMPLER_ARG: String(values.telemetry.tracesSamplerArg),
  };
}

main().catch((err: Error) => {
  console.error(`bench failed: ${err.stack ?? err}`);
  process.exit(1);
});
