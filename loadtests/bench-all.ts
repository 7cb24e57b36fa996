// npm run bench:all [-- --records 100000,1000000 --duration 10 --connections 32]
// For each data-set size, in one run: the ingest rate (generated records into a fresh database), pgbench's raw
// baseline for the lookup queries, the lookup service direct, through the local gateway, the read path against
// pgbench point reads with CPU per request by process (bench:readpath), the type-ahead, and the usage pipeline;
// then one markdown table with absolute figures and each request rate as a share of the pgbench baseline of the
// same size, and the read path's own table. The benchmarks are the bench:* scripts, run one after the other (never
// two loads at once on the same cores); their figures come back as `##result` lines.
import { spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FIGURE_PREFIX, markdownTable, type BenchFigure } from '@pra/platform/bench';
import { createPool, ensureDatabase, withDatabase } from '@pra/platform';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { migrateRecords } from '@pra/ingest/migrate';
import { loadGenerated } from '@pra/ingest/generate';

const root = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000,1000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    events: { type: 'string', default: '30000' },
  },
});
const log = (l: string) => console.error(`[bench:all] ${l}`);

function run(script: string, args: string[]): Promise<BenchFigure[]> {
  log(`${script} ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited with code ${code}`));
      resolve(
        out
          .split('\n')
          .filter((l) => l.startsWith(FIGURE_PREFIX))
          .map((l) => JSON.parse(l.slice(FIGURE_PREFIX.length)) as BenchFigure),
      );
    });
  });
}

/** Generated records loaded into an empty database, timed (the database is dropped afterwards). */
async function ingestRate(records: number): Promise<BenchFigure> {
  const base = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const url = withDatabase(base, `property_records_benchall_ingest`);
  const admin = createPool(withDatabase(base, 'postgres'), 1, 'bench-all');
  await admin.query('DROP DATABASE IF EXISTS property_records_benchall_ingest WITH (FORCE)');
  await ensureDatabase(url);
  const pool = createPool(url, 4, 'bench-all');
  await migrateRecords(pool);
  log(`ingest: generating and loading ${records.toLocaleString('en-US')} records into an empty database`);
  const { seconds, rows } = await loadGenerated(pool, { seed: 2, count: records });
  await pool.end();
  await admin.query('DROP DATABASE IF EXISTS property_records_benchall_ingest WITH (FORCE)');
  await admin.end();
  return { bench: 'ingest', name: 'ingest (generate + COPY + index build)', unit: 'records/s', rate: rows / seconds };
}

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '' : n.toFixed(digits));

function table(records: number, figures: BenchFigure[]): string {
  const baseline = figures.find((f) => f.name === '(c) pgbench address query');
  const pick = (bench: string, name: string, label: string) => {
    const f = figures.find((x) => x.bench === bench && x.name === name);
    return f ? { ...f, name: label } : undefined;
  };
  const mean = (bench: string, name: string, label: string) => {
    const all = figures.filter((x) => x.bench === bench && x.name === name);
    if (all.length === 0) return undefined;
    const avg = (k: 'rate' | 'p50' | 'p99') => all.reduce((s, f) => s + (f[k] ?? 0), 0) / all.length;
    return { ...all[0]!, name: label, rate: avg('rate'), p50: avg('p50'), p99: avg('p99') };
  };
  const rows = [
    pick('lookup', '(c) pgbench address query', 'baseline: pgbench, the address query (prepared, same database)'),
    pick('lookup', '(c) pgbench owner query', 'pgbench, the owner query'),
    pick('lookup', '(a) trivial express endpoint', 'trivial express endpoint (the framework ceiling)'),
    pick('lookup', '(b) lookup /property/address', 'lookup /property/address, direct'),
    pick('lookup', '(b) lookup /property/owner', 'lookup /property/owner, direct'),
    pick(
      'lookup',
      '(d) lookup /property/address, tracing on',
      'lookup /property/address, direct, tracing on (100% sampled)',
    ),
    mean('gateway', 'direct to lookup', 'lookup mix (3 address : 1 owner), direct'),
    mean('gateway', 'through the local gateway', 'lookup mix, through the local gateway'),
    ...figures
      .filter((f) => f.bench === 'autocomplete')
      .map((f) => ({ ...f, name: `type-ahead (${f.name.replace('autocomplete, ', '')})` })),
    ...figures.filter((f) => f.bench === 'billing' && f.unit === 'events/s'),
    pick('ingest', 'ingest (generate + COPY + index build)', 'ingest (generate + COPY + index build)'),
  ].filter((r): r is BenchFigure => r !== undefined);
  const cells = rows.map((r) => {
    const ratio = r.unit === 'req/s' && baseline ? `${((100 * r.rate) / baseline.rate).toFixed(0)}%` : '';
    const service = r.serviceP50 !== undefined ? `${fmt(r.serviceP50, 2)} / ${fmt(r.serviceP99, 2)}` : '';
    return [r.name, `${Math.round(r.rate).toLocaleString('en-US')} ${r.unit}`, fmt(r.p50), fmt(r.p99), service, ratio];
  });
  const lines = [
    `\n### ${records.toLocaleString('en-US')} records`,
    '',
    markdownTable(['what', 'rate', 'p50 ms', 'p99 ms', 'in service p50 / p99 ms', 'vs baseline'], cells),
  ];
  lines.push(...readPathTable(figures));
  return lines.join('\n');
}

/** bench:readpath's figures: through-gateway lookups against pgbench point reads, and CPU per request by process. */
function readPathTable(figures: BenchFigure[]): string[] {
  const rp = figures.filter((f) => f.bench === 'readpath');
  const store = rp.find((f) => f.name.startsWith('pgbench point reads'));
  if (!store) return [];
  const paths = rp.map((f) => [
    f.name,
    `${Math.round(f.rate).toLocaleString('en-US')} ${f.unit}`,
    fmt(f.p50),
    fmt(f.p99),
    `${((100 * f.rate) / store.rate).toFixed(1)}%`,
  ]);
  const lines = ['', markdownTable(['read path', 'rate', 'p50 ms', 'p99 ms', 'vs pgbench point reads'], paths)];
  const measured = rp.filter((f) => f.cpuMsPerRequest);
  if (measured.length === 0) return lines;
  const groups = Object.keys(measured[0]!.cpuMsPerRequest!);
  const total = (f: BenchFigure) => Object.values(f.cpuMsPerRequest!).reduce((a, b) => a + b, 0);
  const cpu = [
    ...groups.map((g) => [g, ...measured.map((f) => fmt(f.cpuMsPerRequest![g], 3))]),
    ['**all**', ...measured.map((f) => `**${fmt(total(f), 3)}**`)],
  ];
  lines.push('', markdownTable(['CPU ms per request', ...measured.map((f) => f.name.replace(/.*, /, ''))], cpu));
  return lines;
}

async function main(): Promise<void> {
  const d = values.duration!;
  const c = values.connections!;
  const tables: string[] = [];
  for (const records of values.records!.split(',').map(Number)) {
    const figures: BenchFigure[] = [await ingestRate(records)];
    const n = String(records);
    figures.push(...(await run('bench/lookup/bench-lookup.ts', ['--records', n, '--duration', d, '--connections', c])));
    figures.push(...(await run('bench/stack/bench-readpath.ts', ['--records', n, '--duration', d])));
    figures.push(...(await run('bench/stack/bench-gateway.ts', ['--records', n, '--duration', d, '--connections', c])));
    figures.push(
      ...(await run('bench/autocomplete/bench-autocomplete.ts', ['--sizes', n, '--duration', d, '--connections', c])),
    );
    figures.push(
      ...(await run('bench/lookup/bench-billing.ts', [
        '--records',
        n,
        '--duration',
        d,
        '--connections',
        c,
        '--events',
        values.events!,
      ])),
    );
    tables.push(table(records, figures));
    console.error(tables.at(-1));
  }
  console.log(`\n## bench:all`);
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}; ` +
      `${c} connections, ${d} s a load; command: npm run bench:all -- --records ${values.records} --duration ${d}`,
  );
  console.log(
    'Load generator (autocannon), services, PostgreSQL and Redis share these cores: every figure includes that contention.',
  );
  for (const t of tables) console.log(t);
}

main().catch((err: Error) => {
  console.error(`[bench:all] failed: ${err.message}`);
  process.exit(1);
});
