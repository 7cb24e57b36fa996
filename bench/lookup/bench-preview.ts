// npm run bench:preview [-- --records 100000 --seconds 15]
// Issue 35: free work must not slow paying clients. A neighbour's single address lookups (one client, one at a
// time, charged) are timed alone, then while 4 and then 8 clients send worst-case batch previews back to back:
// 100 entries of pagesize=100 at an address of 48 units, from an account holding 1 credit (each preview would have
// read and decoded 4,800 record bodies before). Same run, same lookup server (charging on, real Redis). Prints the
// neighbour's p50/p99 per phase and its p99 against the better of the two phases alone, first and last (the target:
// within 1.5x under 8 previews).
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { DEFAULT_REDIS_URL } from '@pra/core/config';
import { billingFixture } from '@pra/account-billing/testing';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { markdownTable, processCpuSeconds, reportFigure, startProcess, quantile } from '@pra/platform/bench';
import { benchDatabaseUrl, prepareBenchDatabase } from './bench-database.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '15' },
  },
});
const records = Number(values.records);
const seconds = Number(values.seconds);
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const prefix = `pra_bench_${Date.now().toString(36)}:`;
/** Previews at once, and whether their 100 entries are 100 copies (the review's) or 100 different pages of it. */
const PHASES = [
  { previewers: 0, distinct: false },
  { previewers: 4, distinct: false },
  { previewers: 8, distinct: false },
  { previewers: 8, distinct: true },
  // Alone again: a shared machine's load drifts during a run; the baseline is the better of the two.
  { previewers: 0, distinct: false },
] as const;

async function main() {
  const { pool } = await prepareBenchDatabase(records);
  const f = await billingFixture(pool, redisUrl, prefix);
  const neighbour = await f.fundedAccount(100_000_000);
  const previewer = await f.fundedAccount(1);
  // The worst case of the review: 48 units at one address.
  const street = uniqueStreet();
  const building = { address: `48 ${street} ST`, zip: '95814', pagesize: '100' };
  await insertProperties(
    pool,
    Array.from({ length: 48 }, (_, i) =>
      makeProperty({ line1: building.address, line2: `APT ${i + 1}`, zip: '95814' }),
    ),
  );
  const { rows } = await pool.query<{ line_key: string; zip: string; unit_key: string }>(
    `SELECT line_key, zip, unit_key FROM records.properties TABLESAMPLE BERNOULLI (5) REPEATABLE (7)
      WHERE source LIKE 'synthetic:%' LIMIT 2000`,
  );
  const addresses = rows.map((r) => ({ address: r.line_key + (r.unit_key ? ` #${r.unit_key}` : ''), zip: r.zip }));
  const server = await startProcess('bench/lookup/lookup-server.ts', {
    DATABASE_URL: benchDatabaseUrl(records),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    BENCH_CHARGING: 'on',
  });
  const base = `http://127.0.0.1:${server.port}/api/v1/property`;
  const dispatcher = new Agent({ connections: 16, pipelining: 1 });
  const body = JSON.stringify({ requests: Array.from({ length: 100 }, () => building) });
  // The same worst case past the batch's once-per-lookup count: 100 different page sizes of the 48 units.
  const distinctBody = JSON.stringify({
    requests: Array.from({ length: 100 }, (_, i) => ({ ...building, pagesize: String(i + 1) })),
  });

  let n = 0;
  const lookup = async () => {
    const a = addresses[n++ % addresses.length]!;
    const t = performance.now();
    const res = await fetch(`${base}/address?${new URLSearchParams(a)}`, {
      headers: { authorization: `Bearer ${neighbour.key}` },
      dispatcher,
    } as RequestInit);
    await res.arrayBuffer();
    if (res.status !== 200 && res.status !== 404) throw new Error(`the neighbour's lookup answered ${res.status}`);
    return performance.now() - t;
  };
  const preview = async (distinct: boolean) => {
    const t = performance.now();
    const res = await fetch(`${base}/batch?preview=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${previewer.key}`, 'content-type': 'application/json' },
      body: distinct ? distinctBody : body,
      dispatcher,
    } as RequestInit);
    const answer = (await res.json()) as { status: { credits_required?: number } };
    const cost = distinct ? (48 * 49) / 2 + 52 * 48 : 4800;
    if (res.status === 200 && answer.status.credits_required !== cost) throw new Error('the preview miscounted');
    return { status: res.status, ms: performance.now() - t };
  };

  // Warm-up (not measured): the JIT, the connections, the statements.
  for (let i = 0; i < 200; i++) await lookup();
  for (let i = 0; i < 3; i++) await preview(i === 2);

  const results: {
    previewers: number;
    distinct: boolean;
    times: number[];
    previews: { status: number; ms: number }[];
    cpu: number;
  }[] = [];
  for (const { previewers, distinct } of PHASES) {
    let running = true;
    const previews: { status: number; ms: number }[] = [];
    const loops = Array.from({ length: previewers }, async () => {
      while (running) previews.push(await preview(distinct));
    });
    const times: number[] = [];
    const cpuBefore = processCpuSeconds(server.pid) ?? 0;
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) times.push(await lookup());
    running = false;
    await Promise.all(loops);
    results.push({ previewers, distinct, times, previews, cpu: (processCpuSeconds(server.pid) ?? 0) - cpuBefore });
  }
  server.stop();
  await server.exited();
  await dispatcher.close();

  console.log(
    `\n### bench:preview, ${records.toLocaleString('en-US')} records, ${seconds} s a phase, 1 neighbour one lookup at a time`,
  );
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}\n`,
  );
  const alone = Math.min(...results.filter((r) => r.previewers === 0).map((r) => quantile(r.times, 0.99)));
  const cells = results.map((r) => {
    const p50 = quantile(r.times, 0.5);
    const p99 = quantile(r.times, 0.99);
    const statuses = new Map<number, number>();
    for (const p of r.previews) statuses.set(p.status, (statuses.get(p.status) ?? 0) + 1);
    reportFigure({
      bench: 'preview',
      name: `neighbour, ${r.previewers} previews at once${r.distinct ? ' (distinct entries)' : ''}`,
      unit: 'req/s',
      rate: r.times.length / seconds,
      p50,
      p99,
    });
    return [
      r.previewers === 0
        ? `alone${r === results[0] ? '' : ' (again)'}`
        : `${r.previewers} previews at once${r.distinct ? ', 100 different pages each' : ''}`,
      `${p50.toFixed(1)} ms`,
      `${p99.toFixed(1)} ms`,
      `${(p99 / alone).toFixed(2)}x`,
      String(r.times.length),
      r.previews.length === 0
        ? '-'
        : `${r.previews.length} (${[...statuses].map(([s, c]) => `${c}x ${s}`).join(', ')}), p50 ${quantile(
            r.previews.map((p) => p.ms),
            0.5,
          ).toFixed(0)} ms`,
      `${((r.cpu / seconds) * 100).toFixed(0)}%`,
    ];
  });
  console.log(
    markdownTable(
      [
        'phase',
        'neighbour p50',
        'neighbour p99',
        'p99 vs alone',
        'lookups',
        'previews answered (statuses), p50',
        'lookup CPU',
      ],
      cells,
    ),
  );
  await f.close();
  await pool.end();
}

await main();
