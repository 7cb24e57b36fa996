// npm run bench:batch [-- --records 100000 --rounds 40 --concurrency 8]
// Issue 27: 100 addresses looked up in one POST /property/batch against the same 100 as single calls, in the same
// run, on the same lookup server (charging on, real Redis): single calls one at a time (a client's simple loop) and
// `--concurrency` at a time (a client that parallelises), then one batch. Each round takes another 100 addresses
// of the bench database; the methods alternate round by round so that caches and autovacuum weigh on each alike.
// Prints per method: wall time for 100 addresses (p50, p99), addresses a second, and the server's CPU per address.
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { DEFAULT_REDIS_URL } from '@pra/core/config';
import { billingFixture } from '@pra/account-billing/testing';
import { markdownTable, processCpuSeconds, reportFigure, startProcess, quantile } from '@pra/platform/bench';
import { benchDatabaseUrl, prepareBenchDatabase } from './bench-database.js';
import { useLocalStack } from '@pra/platform/local-stack';

// The PostgreSQL and Redis npm start ran with (.data/local-stack.json), unless DATABASE_URL / REDIS_URL say otherwise.
useLocalStack('bench:batch');

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '8' },
  },
});
const records = Number(values.records);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const BATCH = 100;
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const prefix = `pra_bench_${Date.now().toString(36)}:`;

type Entry = { address: string; zip: string };
type Method = 'single calls, one at a time' | `single calls, ${number} at a time` | 'one batch';

async function main() {
  const { pool } = await prepareBenchDatabase(records);
  const f = await billingFixture(pool, redisUrl, prefix);
  const { key } = await f.fundedAccount(100_000_000);
  const { rows } = await pool.query<{ line_key: string; zip: string; unit_key: string }>(
    `SELECT line_key, zip, unit_key FROM records.properties TABLESAMPLE BERNOULLI (5) REPEATABLE (11)
      WHERE source LIKE 'synthetic:%' LIMIT $1`,
    [BATCH * rounds * 3 + BATCH],
  );
  const entries: Entry[] = rows.map((r) => ({
    address: r.line_key + (r.unit_key ? ` #${r.unit_key}` : ''),
    zip: r.zip,
  }));
  if (entries.length < BATCH * 4) throw new Error(`only ${entries.length} addresses sampled: load more records`);
  const server = await startProcess('bench/lookup/lookup-server.ts', {
    DATABASE_URL: benchDatabaseUrl(records),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    BENCH_CHARGING: 'on',
  });
  const base = `http://127.0.0.1:${server.port}/api/v1/property`;
  const dispatcher = new Agent({ connections: Math.max(concurrency, 1), pipelining: 1 });
  const headers = { authorization: `Bearer ${key}` };

  const single = async (e: Entry) => {
    const res = await fetch(`${base}/address?${new URLSearchParams({ address: e.address, zip: e.zip })}`, {
      headers,
      dispatcher,
    } as RequestInit);
    await res.arrayBuffer();
    if (res.status !== 200 && res.status !== 404) throw new Error(`single call answered ${res.status}`);
  };
  const inParallel = async (list: Entry[], n: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: n }, async () => {
        while (next < list.length) await single(list[next++]!);
      }),
    );
  };
  const batch = async (list: Entry[]) => {
    const res = await fetch(`${base}/batch`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ requests: list }),
      dispatcher,
    } as RequestInit);
    const body = (await res.json()) as { results?: unknown[] };
    if (res.status !== 200 || body.results?.length !== list.length) throw new Error(`batch answered ${res.status}`);
  };
  const methods: [Method, (list: Entry[]) => Promise<void>][] = [
    ['single calls, one at a time', (l) => inParallel(l, 1)],
    [`single calls, ${concurrency} at a time`, (l) => inParallel(l, concurrency)],
    ['one batch', batch],
  ];

  // Warm-up (not measured): the JIT and the connections, on addresses no round uses.
  for (const [, run] of methods) await run(entries.slice(-BATCH));
  const times = new Map<Method, number[]>(methods.map(([m]) => [m, []]));
  const cpu = new Map<Method, number>(methods.map(([m]) => [m, 0]));
  for (let round = 0; round < rounds; round++) {
    for (const [i, [method, run]] of methods.entries()) {
      // Each method its own addresses in each round: none is answered from a cache another one warmed.
      const offset = ((round * methods.length + i) * BATCH) % (entries.length - 2 * BATCH);
      const list = entries.slice(offset, offset + BATCH);
      const cpuBefore = processCpuSeconds(server.pid) ?? 0;
      const t = performance.now();
      await run(list);
      times.get(method)!.push(performance.now() - t);
      cpu.set(method, cpu.get(method)! + (processCpuSeconds(server.pid) ?? 0) - cpuBefore);
    }
  }
  server.stop();
  await server.exited();
  await dispatcher.close();

  console.log(`\n### bench:batch, ${records.toLocaleString('en-US')} records, ${rounds} rounds of ${BATCH} addresses`);
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}\n`,
  );
  const baseline = quantile(times.get('single calls, one at a time')!, 0.5);
  const cells: string[][] = [];
  for (const [method] of methods) {
    const ts = times.get(method)!;
    const p50 = quantile(ts, 0.5);
    const total = ts.reduce((s, x) => s + x, 0) / 1000;
    const perSecond = (rounds * BATCH) / total;
    const cpuUs = (cpu.get(method)! / (rounds * BATCH)) * 1e6;
    cells.push([
      method,
      `${p50.toFixed(1)} ms`,
      `${quantile(ts, 0.99).toFixed(1)} ms`,
      String(Math.round(perSecond)),
      `${Math.round(cpuUs)} µs`,
      `${(baseline / p50).toFixed(2)}x`,
    ]);
    // The rate is of addresses (as req/s for the single calls); p50/p99 are of 100 addresses.
    reportFigure({ bench: 'batch', name: method, unit: 'req/s', rate: perSecond, p50, p99: quantile(ts, 0.99) });
  }
  console.log(
    markdownTable(
      ['method', '100 addresses p50', 'p99', 'addresses/s', 'lookup CPU per address', 'vs one at a time'],
      cells,
    ),
  );
  await f.close();
  await pool.end();
}

await main();
