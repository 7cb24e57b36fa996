// npm run bench:billing [-- --duration 20 --connections 32 --events 50000 --records 100000 --drain-only]
// One run: (1) lookup req/s and p50/p99 with charging on and off, alternated twice (same app and keys; only the
// Redis charge is replaced): the cost on the request path, with the usage pipeline paused; then charging on with
// the pipeline running beside it, as in production on this one machine (target: at least 90% of paused); (2) the
// pipeline's sustained rate into PostgreSQL: a backlog drained by the server's pipeline alone (charges only, then a
// mixed backlog of 1 charge to 5 calls without a charge, as type-ahead traffic makes it), then by it plus one extra
// worker process (target: 20,000 events/s). --drain-only skips (1).
import { randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { loadFigure, markdownTable, replay, reportFigure, startProcess, type LoadResult } from '@pra/platform/bench';
import { DEFAULT_REDIS_URL } from '@pra/core/config';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { benchDatabaseUrl, prepareBenchDatabase } from './bench-database.js';
import { UsagePipeline } from '@pra/account-billing/pipeline';
import { usageReport } from '@pra/account-billing/usage-report';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '32' },
    events: { type: 'string', default: '50000' },
    records: { type: 'string', default: '100000' },
    'drain-only': { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const records = Number(values.records);
const dbUrl = benchDatabaseUrl(records);
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const prefix = `pra_bench_${Date.now().toString(36)}:`;

const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
/** The targets of issue 24: events drained a second, lookups with the pipeline running as a share of paused. */
const DRAIN_TARGET = 20_000;
const RUNNING_VS_PAUSED_TARGET = 0.9;
/** Calls without a charge per charge in the mixed backlog (type-ahead: several keystrokes per lookup). */
const CALLS_PER_CHARGE = 5;

/**
 * A backlog of `events`, 500 at a time, with the pipeline stopped: single transactions charged 1 or 2 credits each,
 * and after each charge `callsPerCharge` calls without a charge (counted as the services count them).
 */
async function chargeBacklog(
  f: BillingFixture,
  accountId: number,
  keyId: number,
  events: number,
  callsPerCharge = 0,
): Promise<{ charges: number }> {
  let charges = 0;
  for (let done = 0; done < events; done += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, events - done) }, (_, i) => {
        const tx = randomUUID();
        if ((done + i) % (callsPerCharge + 1) !== 0)
          return f.calls.recordCall({
            requestId: tx,
            transactionId: tx,
            accountId,
            keyId,
            endpoint: '/property/autocomplete',
          });
        charges++;
        return f.meter.charge({
          transactionId: tx,
          accountId,
          keyId,
          endpoint: '/bench',
          wanted: 1 + (charges % 2),
          fingerprint: tx,
        });
      }),
    );
  }
  return { charges };
}

async function main() {
  const { pool } = await prepareBenchDatabase(records);
  const f = await billingFixture(pool, redisUrl, prefix);
  const { key } = await f.fundedAccount(100_000_000);
  const { rows } = await pool.query<{ line_key: string; zip: string; unit_key: string }>(
    `SELECT line_key, zip, unit_key FROM records.properties TABLESAMPLE BERNOULLI (1) REPEATABLE (7) WHERE source LIKE 'synthetic:%' LIMIT 2000`,
  );
  const paths = rows.map(
    (k) =>
      `/api/v1/property/address?address=${encodeURIComponent(k.line_key + (k.unit_key ? ` #${k.unit_key}` : ''))}&zip=${k.zip}`,
  );
  type Row = LoadResult & { charging: 'on' | 'off'; pipeline: boolean };
  const results: Row[] = [];
  const run = async (charging: 'on' | 'off', pipeline: boolean) => {
    const server = await startProcess('bench/lookup/lookup-server.ts', {
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      BENCH_CHARGING: charging,
    });
    const r = await replay(
      `charging ${charging}${pipeline ? ', usage pipeline running' : ''}`,
      `http://127.0.0.1:${server.port}`,
      paths,
      { connections, duration, key },
    );
    results.push({ ...r, charging, pipeline });
    server.stop();
  };
  if (!values['drain-only']) for (const charging of ['off', 'on', 'off', 'on'] as const) await run(charging, false);
  // The ledger writer in a process of its own, as in production (not in this process, beside the load generator).
  const writer = await startProcess(
    'services/account-billing/src/worker.ts',
    { DATABASE_URL: dbUrl, REDIS_URL: redisUrl, REDIS_PREFIX: prefix },
    { waitForPort: false },
  );
  const watch = new UsagePipeline({
    pool,
    redisUrl,
    layout: f.layout,
    log: () => {},
    roles: { ledgerWriter: false, maintenance: false },
  });
  await watch.drained(f.redis, 300_000);
  if (!values['drain-only']) await run('on', true);
  await watch.drained(f.redis, 300_000);
  writer.stop();
  await writer.exited();
  await watch.stop();

  const events = Number(values.events);
  {
    // Warm-up (not measured): the writer's code compiled by the JIT, as in a process that has been running.
    const warm = await f.fundedAccount(20_000);
    await chargeBacklog(f, warm.accountId, warm.keyId, 10_000, 1);
    const w = new UsagePipeline({ pool, redisUrl, layout: f.layout, log: () => {} });
    await w.start();
    await w.drained(f.redis, 300_000);
    await w.stop();
  }
  const drainRates: { name: string; perSecond: number; cpuUsPerEvent?: number }[] = [];
  const drains = [
    { name: 'one ledger writer (the server pipeline)', extraWorkers: 0, callsPerCharge: 0 },
    {
      name: `one ledger writer, mixed backlog (1 charge : ${CALLS_PER_CHARGE} calls)`,
      extraWorkers: 0,
      callsPerCharge: CALLS_PER_CHARGE,
    },
    { name: "the server's writer + 1 writer process", extraWorkers: 1, callsPerCharge: 0 },
  ];
  for (const d of drains) {
    const a = await f.fundedAccount(events * 2);
    const { charges } = await chargeBacklog(f, a.accountId, a.keyId, events, d.callsPerCharge);
    const extra = await Promise.all(
      Array.from({ length: d.extraWorkers }, () =>
        startProcess(
          'services/account-billing/src/worker.ts',
          { DATABASE_URL: dbUrl, REDIS_URL: redisUrl, REDIS_PREFIX: prefix },
          { waitForPort: false },
        ),
      ),
    );
    const drain = new UsagePipeline({ pool, redisUrl, layout: f.layout, log: () => {} });
    const t = performance.now();
    // This process does nothing else while it drains: its CPU time is the ledger writer's (Redis and PostgreSQL
    // are other processes, not counted).
    const cpu = process.cpuUsage();
    await drain.start();
    await drain.drained(f.redis, 600_000);
    const seconds = (performance.now() - t) / 1000;
    const used = process.cpuUsage(cpu);
    await drain.stop();
    for (const w of extra) w.stop();
    const { rows: check } = await pool.query(
      'SELECT count(*)::int AS n FROM billing.usage_events WHERE account_id = $1',
      [a.accountId],
    );
    if (check[0].n !== charges) throw new Error(`expected ${charges} usage events, found ${check[0].n}`);
    const usage = await usageReport(pool, a.accountId);
    if (usage.calls.total !== events) throw new Error(`expected ${events} calls in /usage, found ${usage.calls.total}`);
    drainRates.push({
      name: d.name,
      perSecond: events / seconds,
      ...(d.extraWorkers === 0 ? { cpuUsPerEvent: (used.user + used.system) / events } : {}),
    });
  }

  const off = results.filter((r) => r.charging === 'off');
  const on = results.filter((r) => r.charging === 'on' && !r.pipeline);
  for (const d of drainRates)
    reportFigure({ bench: 'billing', name: `usage pipeline: ${d.name}`, unit: 'events/s', rate: d.perSecond });
  for (const r of results)
    reportFigure(
      loadFigure('billing', { ...r, name: `lookup, charging ${r.charging}${r.pipeline ? ', pipeline running' : ''}` }),
    );
  console.log(
    `\n### bench:billing, ${records.toLocaleString('en-US')} records, ${connections} connections, ${duration} s each`,
  );
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}\n`,
  );
  const cells: string[][] = results.map((r) => [
    r.name,
    Math.round(r.rps).toLocaleString('en-US'),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    String(r.errors),
  ]);
  if (on.length > 0 && off.length > 0)
    cells.push([
      'charging on vs off, request path (means)',
      `${((avg(on.map((r) => r.rps)) / avg(off.map((r) => r.rps)) - 1) * 100).toFixed(1)}%`,
      (avg(on.map((r) => r.p50)) - avg(off.map((r) => r.p50))).toFixed(1),
      (avg(on.map((r) => r.p99)) - avg(off.map((r) => r.p99))).toFixed(1),
      '',
    ]);
  const running = results.find((r) => r.pipeline);
  if (running && on.length > 0)
    cells.push([
      `lookup with the pipeline running vs paused (charging on; target >= ${RUNNING_VS_PAUSED_TARGET * 100}%)`,
      `${((running.rps / avg(on.map((r) => r.rps))) * 100).toFixed(0)}%`,
      '',
      '',
      '',
    ]);
  console.log(markdownTable(['lookup /property/address', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx'], cells));
  const drained = drainRates.map((d) => [
    d.name,
    Math.round(d.perSecond).toLocaleString('en-US'),
    DRAIN_TARGET.toLocaleString('en-US'),
    d.cpuUsPerEvent === undefined ? '' : `${d.cpuUsPerEvent.toFixed(1)} us`,
  ]);
  console.log(
    `\n${markdownTable(
      [
        `usage pipeline, ${events.toLocaleString('en-US')} events drained into PostgreSQL`,
        'events/s',
        'target',
        'writer CPU per event',
      ],
      drained,
    )}`,
  );
  await f.close();
  await pool.end();
  process.exit(0);
}

main().catch((err) => {
  console.error(`bench failed: ${err.stack ?? err}`);
  process.exit(1);
});
