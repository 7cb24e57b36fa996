// npm run bench:autocomplete [-- --sizes 100000,1000000 --duration 20 --connections 32]
// For each size: the PostgreSQL index is (re)built (timed), then type-ahead sequences are replayed: sampled
// addresses typed from 3 characters to the full line, unit included. Reports req/s, client latency, and the time
// spent in the service (its Server-Timing header), which is what the targets (p50 <= 2 ms, p99 <= 8 ms) are about.
import { storedAddress } from '@pra/core/stored';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_REDIS_URL } from '@pra/core/config';
import { loadFigure, markdownTable, replay, reportFigure, startProcess, type LoadResult } from '@pra/platform/bench';
import { billingFixture } from '@pra/account-billing/testing';
import { prepareBenchDatabase } from '../lookup/bench-database.js';
import { migrateSearch } from '../../services/autocomplete/src/data/migrate.js';
import { PostgresSearchIndex } from '../../services/autocomplete/src/data/postgres-index.js';
import { runRebuild } from '../../services/autocomplete/src/indexing/index-queue.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000,1000000' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '32' },
  },
});
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;

async function benchSize(
  records: number,
): Promise<{ records: number; indexSeconds: number; result: LoadResult; light: LoadResult; requests: number }> {
  const { url: dbUrl, pool } = await prepareBenchDatabase(records);
  await migrateSearch(pool);
  const started = performance.now();
  const indexed = await runRebuild({ pool, index: new PostgresSearchIndex(pool) }, (done, total) => {
    if (done % 100_000 < 5_000) process.stderr.write(`index ${done}/${total}\n`);
  });
  const indexSeconds = (performance.now() - started) / 1000;
  await pool.query('ANALYZE search.address_suggestions');
  console.error(`indexed ${indexed} documents in ${indexSeconds.toFixed(1)} s`);
  const prefix = `pra_bench_ac_${Date.now().toString(36)}:`;
  const billing = await billingFixture(pool, redisUrl, prefix);
  const { key } = await billing.fundedAccount(1);
  // Typing sequences: each sampled address from 3 characters to its full line, in order.
  const { rows: bodies } = await pool.query<{ body: Buffer }>(
    `SELECT body FROM records.properties TABLESAMPLE BERNOULLI (0.5) REPEATABLE (11) WHERE source LIKE 'synthetic:%' LIMIT 300`,
  );
  const rows = bodies.map((r) => {
    const a = storedAddress(r.body);
    return { line: a.line2 ? `${a.line1} ${a.line2}` : a.line1 };
  });
  const paths = rows.flatMap((r) =>
    Array.from({ length: r.line.length - 2 }, (_, i) => r.line.slice(0, i + 3))
      .filter((typed) => typed.trim().length >= 3) // SPEC 4.6: at least 3 characters
      .map((typed) => `/api/v1/property/autocomplete?q=${encodeURIComponent(typed)}`),
  );
  const server = await startProcess('services/autocomplete/src/server.ts', {
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    AUTOCOMPLETE_PORT: '0',
  });
  const url = `http://127.0.0.1:${server.port}`;
  const load = { connections: Number(values.connections), duration: Number(values.duration), key, serverTiming: true };
  await replay('warm-up', url, paths, { ...load, duration: 3 });
  const result = await replay(`${records.toLocaleString('en-US')} records`, url, paths, load);
  // The same keystrokes at 4 connections: the per-keystroke cost when the service is not queueing for the CPU.
  const light = await replay(`${records.toLocaleString('en-US')} records, 4 connections`, url, paths, {
    ...load,
    connections: 4,
  });
  server.stop();
  await billing.close();
  await pool.end();
  return { records, indexSeconds, result, light, requests: paths.length };
}

async function main() {
  const rows = [];
  for (const size of values.sizes!.split(',').map(Number)) rows.push(await benchSize(size));
  for (const r of rows) {
    reportFigure(loadFigure('autocomplete', { ...r.result, name: `autocomplete, ${values.connections} connections` }));
    reportFigure(loadFigure('autocomplete', { ...r.light, name: 'autocomplete, 4 connections' }));
  }
  console.log(
    `\n### bench:autocomplete (PostgreSQL adapter), ${values.connections} connections, ${values.duration} s each`,
  );
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}\n`,
  );
  const cells = rows.flatMap((r) =>
    (
      [
        [r.result, values.connections],
        [r.light, '4'],
      ] as const
    ).map(([res, conns]) => {
      const s = res.service!;
      return [
        r.records.toLocaleString('en-US'),
        conns,
        r.indexSeconds.toFixed(1),
        Math.round(res.rps).toLocaleString('en-US'),
        res.p50.toFixed(1),
        res.p99.toFixed(1),
        s.p50.toFixed(2),
        s.p99.toFixed(2),
        res.errors,
      ];
    }),
  );
  console.log(
    markdownTable(
      [
        { name: 'records' },
        'connections',
        'index build s',
        'req/s',
        'client p50 ms',
        'client p99 ms',
        'in service p50 ms',
        'in service p99 ms',
        'non-2xx',
      ],
      cells,
    ),
  );
  console.log(`\n(${rows[0]?.requests ?? 0} distinct keystroke queries per size, replayed in typing order)`);
  process.exit(0);
}

main().catch((err) => {
  console.error(`bench failed: ${err.stack ?? err}`);
  process.exit(1);
});
