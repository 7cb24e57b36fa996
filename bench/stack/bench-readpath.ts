// npm run bench:readpath [-- --records 100000 --duration 15 --connections 32]
// The read path as a client meets it, against the store's ceiling, in one run:
// - pgbench point reads (`SELECT body FROM records.properties WHERE id = :id`, prepared, 16 clients): the most this
//   machine's PostgreSQL answers;
// - address lookups through the local gateway, as npm start runs the system (account-billing with its ledger writer,
//   lookup, the gateway; processes under startSystem), with a metered enterprise key whose limits are lifted, round
//   robin over 500 real addresses; once with request logs at the default level (info) and once at warn;
// - the same lookups on 1 connection (the latency of an idle system);
// - for each 32-connection run, the CPU each process used per request (from /proc: the gateway, lookup,
//   account-billing, Redis, every PostgreSQL backend, and this load generator).
import { randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_REDIS_URL } from '@pra/core/config';
import {
  averageRuns,
  cpuMeter,
  loadFigure,
  markdownTable,
  pgbench,
  pidsNamed,
  redisServerPids,
  replay,
  reportFigure,
  type LoadResult,
  type MeasuredRun,
} from '@pra/platform/bench';
import { freePort } from '@pra/platform/testing';
import { billingFixture } from '@pra/account-billing/testing';
import { setAccountLimits } from '@pra/account-billing/domain';
import { prepareBenchDatabase } from '../lookup/bench-database.js';
import { Supervisor } from '../../services/stack/src/supervisor.js';
import { startSystem } from '../../services/stack/src/system.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '32' },
    /** Write each process's CPU profile (node --cpu-prof) into this directory. */
    profile: { type: 'string' },
  },
});
const records = Number(values.records);
const duration = Number(values.duration);
const connections = Number(values.connections);
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const prefix = `pra_bench_rp_${Date.now().toString(36)}:`;
const root = fileURLToPath(new URL('../../', import.meta.url));
const log = (l: string) => console.error(`[bench:readpath] ${l}`);

const PROCESSES = ['gateway', 'lookup', 'account-billing'] as const;

type Run = MeasuredRun;

async function main() {
  const { url: dbUrl, pool } = await prepareBenchDatabase(records, 4);
  const billing = await billingFixture(pool, redisUrl, prefix);
  const { key, accountId } = await billing.fundedAccount(1_000_000_000, { tier: 'enterprise' });
  await setAccountLimits(billing.deps, accountId, { ratePerMinute: 100_000_000, dailyQuota: null });
  const { rows } = await pool.query<{ line_key: string; unit_key: string; zip: string }>(
    `SELECT line_key, unit_key, zip FROM records.properties TABLESAMPLE BERNOULLI (2) REPEATABLE (11)
      WHERE source LIKE 'synthetic:%' LIMIT 500`,
  );
  const paths = rows.map(
    (r) =>
      `/api/v1/property/address?address=${encodeURIComponent(r.line_key + (r.unit_key ? ` APT ${r.unit_key}` : ''))}&zip=${r.zip}`,
  );
  const { rows: idRows } = await pool.query<{ max: number }>('SELECT max(id)::int AS max FROM records.properties');
  const redisPids = await redisServerPids([redisUrl]);

  let warmedUp = false;
  const runSystem = async (
    logLevel: string,
    measure: (gatewayUrl: string, pids: Record<string, number[]>) => Promise<void>,
  ) => {
    const profiling = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}/${logLevel}`] : [];
    const supervisor = new Supervisor({
      cwd: root,
      nodeArgs: ['--import', 'tsx', ...profiling],
      log,
      stdout: 'ignore',
    });
    const ports = {
      gateway: await freePort(),
      lookup: await freePort(),
      billing: await freePort(),
      admin: await freePort(),
    };
    try {
      const system = await startSystem({
        placement: 'processes',
        supervisor,
        only: PROCESSES,
        ports: { ...ports, autocomplete: 0, plans: 0 },
        firstInternalPort: 0,
        databaseUrl: dbUrl,
        redisUrl,
        redisPrefix: prefix,
        gatewayKey: randomUUID() + randomUUID(),
        adminToken: randomUUID(),
        publicBaseUrl: '/api/v1',
        // Request logs as deployed (stdout, here /dev/null); at `warn` only what goes wrong.
        env: () => ({ LOG_LEVEL: logLevel }),
      });
      const pids = Object.fromEntries(PROCESSES.map((p) => [p, [supervisor.status(p).pid!]]));
      // The first system also warms PostgreSQL's cache and the bench account's Redis state: a longer warm-up.
      await replay('warm-up', system.gatewayUrl, paths, { connections, duration: warmedUp ? 3 : 10, key });
      warmedUp = true;
      await measure(system.gatewayUrl, pids);
    } finally {
      await supervisor.stop();
    }
  };

  const measured = async (name: string, url: string, pids: Record<string, number[]>): Promise<Run> => {
    const meter = cpuMeter({
      ...Object.fromEntries(Object.entries(pids).map(([n, p]) => [n, () => p])),
      redis: () => redisPids,
      postgres: () => pidsNamed('postgres'),
      'load generator': () => [process.pid],
    });
    meter.start();
    const load = await replay(name, url, paths, { connections, duration, key });
    const cpu = meter.stop();
    const requests = load.rps * duration;
    const cpuMsPerRequest = Object.fromEntries(Object.entries(cpu).map(([n, s]) => [n, (s * 1000) / requests]));
    return { load, cpuMsPerRequest };
  };

  // Info and warn in the order info, warn, warn, info: one system after another warms caches and moves the machine's
  // state (the ledger grows, autovacuum runs), and this order cancels a steady drift instead of charging it to a level.
  const byLevel: Record<'info' | 'warn', Run[]> = { info: [], warn: [] };
  let idle: LoadResult | undefined;
  for (let round = 1; round <= 2; round++) {
    for (const level of round === 1 ? (['info', 'warn'] as const) : (['warn', 'info'] as const)) {
      log(`round ${round}: through the gateway, logs at ${level}: ${connections} connections, ${duration} s`);
      await runSystem(level, async (url, pids) => {
        byLevel[level].push(await measured(`address lookups through the gateway, logs at ${level}`, url, pids));
        if (!idle)
          idle = await replay('address lookups through the gateway, 1 connection', url, paths, {
            connections: 1,
            duration: 5,
            key,
          });
      });
    }
  }
  const runs = [averageRuns(byLevel.info), averageRuns(byLevel.warn)];
  log('pgbench point reads (16 clients)');
  const store = pgbench(
    dbUrl,
    'pgbench point reads (SELECT body ... WHERE id = :id)',
    `\\set id random(1, ${idRows[0]!.max})\nSELECT body FROM records.properties WHERE id = :id;\n`,
    { connections: 16, duration },
  );
  await billing.close();
  await pool.end();

  reportFigure(loadFigure('readpath', store));
  for (const r of runs) reportFigure({ ...loadFigure('readpath', r.load), cpuMsPerRequest: r.cpuMsPerRequest });
  reportFigure(loadFigure('readpath', idle!));
  const pct = (r: LoadResult) => `${((r.rps / store.rps) * 100).toFixed(1)}%`;
  console.log(`\n### bench:readpath, ${records.toLocaleString('en-US')} records, ${duration} s each`);
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}\n`,
  );
  console.log(
    markdownTable(
      ['', 'req/s', 'p50 ms', 'p99 ms', 'vs pgbench point reads', 'non-2xx'],
      [store, ...runs.map((x) => x.load), idle!].map((r) => [
        r.name,
        Math.round(r.rps).toLocaleString('en-US'),
        r.p50.toFixed(1),
        r.p99.toFixed(1),
        pct(r),
        r.errors,
      ]),
    ),
  );
  if ([store, ...runs.map((x) => x.load), idle!].some((r) => r.errors > 0))
    console.log('\n**Some answers were not 2xx: those rates are not those of lookups.**');
  const [info, warn] = runs as [Run, Run];
  const rounds = (l: 'info' | 'warn') =>
    byLevel[l].map((r) => Math.round(r.load.rps).toLocaleString('en-US')).join(', ');
  console.log(`\nrounds (req/s): info ${rounds('info')}; warn ${rounds('warn')} (the table shows their means)`);
  console.log(
    `\nrequest logs at info cost ${((1 - info.load.rps / warn.load.rps) * 100).toFixed(1)}% of throughput against warn`,
  );
  console.log('\nCPU milliseconds per request, by process (process CPU time over the run / requests answered):\n');
  const groups = Object.keys(info.cpuMsPerRequest);
  const total = (r: Run) => Object.values(r.cpuMsPerRequest).reduce((s, x) => s + x, 0);
  console.log(
    markdownTable(
      ['process', 'logs at info', 'logs at warn'],
      [
        ...groups.map((g) => [g, info.cpuMsPerRequest[g]!.toFixed(3), warn.cpuMsPerRequest[g]!.toFixed(3)]),
        ['**all**', `**${total(info).toFixed(3)}**`, `**${total(warn).toFixed(3)}**`],
      ],
    ),
  );
  process.exit(0);
}

main().catch((err) => {
  console.error(
    `bench failed: ${err.stack ?? err}\nIs PostgreSQL (with pgbench) and Redis running? npm start brings both up.`,
  );
  process.exit(1);
});
