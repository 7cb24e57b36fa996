// npm run bench:topology [-- --records 100000 --duration 15 --connections 32]
// Address lookups through the local gateway, as npm start runs the system (account-billing with its ledger writer,
// lookup, the gateway: processes under startSystem), on two topologies of stores this benchmark starts itself on
// this machine, alternated (single, past-one-node, past-one-node, single) so that a drift is not charged to either:
// - single node: one redis-server, every read and write on one PostgreSQL (the primary);
// - past one node: a Redis Cluster (three masters, one with a replica; REDIS_CLUSTER_NODES) and lookups read from a
//   streaming replica (DATABASE_READ_URL), writes on the primary.
// Both use the same primary (the replica is its base backup), the same records and the same account. On one machine
// past-one-node cannot be faster: every hop it adds runs on the same cores; the figures show what those hops cost,
// with the CPU each process used per request (gateway, lookup, account-billing, Redis, each PostgreSQL).
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { redisTarget } from '@pra/core/config';
import { createPool } from '@pra/platform';
import {
  averageRuns,
  cpuMeter,
  loadFigure,
  markdownTable,
  processTree,
  redisServerPids,
  replay,
  reportFigure,
  type MeasuredRun,
} from '@pra/platform/bench';
import {
  freePort,
  startRedisCluster,
  startRedisServer,
  startReplicatedPostgres,
  type OwnRedis,
  type OwnRedisCluster,
} from '@pra/platform/testing';
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
  },
});
const records = Number(values.records);
const duration = Number(values.duration);
const connections = Number(values.connections);
const root = fileURLToPath(new URL('../../', import.meta.url));
const log = (l: string) => console.error(`[bench:topology] ${l}`);
const PROCESSES = ['gateway', 'lookup', 'account-billing'] as const;

/** The postmaster of the PostgreSQL at `url`: the process whose command line names its data directory. */
async function postmasterOf(url: string): Promise<number> {
  const pool = createPool(url, 1, 'bench-topology');
  try {
    const { rows } = await pool.query<{ dir: string }>(`SELECT current_setting('data_directory') AS dir`);
    const dir = rows[0]!.dir;
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
        if (cmd.includes('-D') && cmd[cmd.indexOf('-D') + 1] === dir) return Number(d);
      } catch {
        // gone meanwhile
      }
    }
    throw new Error(`no postmaster found for ${dir}`);
  } finally {
    await pool.end();
  }
}

interface Topology {
  name: string;
  redis: { url: string; clusterNodes?: string; pids: number[] };
  readUrl?: string;
}

interface Run extends MeasuredRun {
  topology: string;
}

async function main() {
  log('starting a PostgreSQL primary and its streaming replica of this benchmark (loading the records first)');
  const database = `property_records_bench_${records}`;
  const pg = await startReplicatedPostgres({
    database,
    settings: { max_connections: '200', shared_buffers: '256MB' },
    prepare: async (url) => {
      const { pool } = await prepareBenchDatabase(records, 4, url);
      await pool.query('VACUUM ANALYZE');
      await pool.end();
    },
  });
  let single: OwnRedis | undefined;
  let cluster: OwnRedisCluster | undefined;
  try {
    const primaryUrl = pg.url('primary');
    const replicaUrl = pg.url('replica');
    const postmasters = { primary: await postmasterOf(primaryUrl), replica: await postmasterOf(replicaUrl) };
    single = await startRedisServer();
    cluster = await startRedisCluster();
    const topologies: Topology[] = [
      { name: 'single node', redis: { url: single.url, pids: await redisServerPids([single.url]) } },
      {
        name: 'Redis Cluster + read replica',
        redis: {
          url: 'redis://127.0.0.1:6379', // the seeds win; a URL only carries credentials (none here)
          clusterNodes: cluster.seeds,
          pids: await redisServerPids(cluster.nodes.map((n) => `redis://127.0.0.1:${n.port}`)),
        },
        readUrl: replicaUrl,
      },
    ];
    const pool = createPool(primaryUrl, 4, 'bench-topology');
    const { rows } = await pool.query<{ line_key: string; unit_key: string; zip: string }>(
      `SELECT line_key, unit_key, zip FROM records.properties TABLESAMPLE BERNOULLI (2) REPEATABLE (11)
        WHERE source LIKE 'synthetic:%' LIMIT 500`,
    );
    const paths = rows.map(
      (r) =>
        `/api/v1/property/address?address=${encodeURIComponent(r.line_key + (r.unit_key ? ` APT ${r.unit_key}` : ''))}&zip=${r.zip}`,
    );
    // One account per topology (each Redis holds its own balances), its limits lifted: no request is a 429.
    const keys = new Map<string, string>();
    for (const t of topologies) {
      const prefix = `pra_bench_tp_${Date.now().toString(36)}:`;
      const f = await billingFixture(
        pool,
        redisTarget({ REDIS_URL: t.redis.url, REDIS_CLUSTER_NODES: t.redis.clusterNodes }),
        prefix,
      );
      const a = await f.fundedAccount(1_000_000_000, { tier: 'enterprise' });
      await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 100_000_000, dailyQuota: null });
      keys.set(t.name, `${prefix}\n${a.key}`);
      await f.close();
    }
    await pg.caughtUp(60_000);

    const runs: Run[] = [];
    let warmedUp = false;
    for (const t of [topologies[0]!, topologies[1]!, topologies[1]!, topologies[0]!]) {
      const [prefix, key] = keys.get(t.name)!.split('\n') as [string, string];
      const supervisor = new Supervisor({ cwd: root, nodeArgs: ['--import', 'tsx'], log, stdout: 'ignore' });
      const ports = { gateway: await freePort(), lookup: await freePort(), billing: await freePort() };
      try {
        const system = await startSystem({
          placement: 'processes',
          supervisor,
          only: PROCESSES,
          ports: { ...ports, admin: await freePort(), autocomplete: 0, plans: 0 },
          firstInternalPort: 0,
          databaseUrl: primaryUrl,
          databaseReadUrl: t.readUrl,
          redisUrl: t.redis.url,
          redisClusterNodes: t.redis.clusterNodes,
          redisPrefix: prefix,
          gatewayKey: randomUUID() + randomUUID(),
          adminToken: randomUUID(),
          publicBaseUrl: '/api/v1',
          env: () => ({ LOG_LEVEL: 'warn' }),
        });
        log(`${t.name}: warm-up, then ${connections} connections for ${duration} s`);
        await replay('warm-up', system.gatewayUrl, paths, { connections, duration: warmedUp ? 3 : 10, key });
        warmedUp = true;
        const procs = Object.fromEntries(PROCESSES.map((p) => [p, [supervisor.status(p).pid!]]));
        const meter = cpuMeter({
          ...Object.fromEntries(Object.entries(procs).map(([n, p]) => [n, () => p])),
          redis: () => t.redis.pids,
          'postgres primary': () => processTree(postmasters.primary),
          'postgres replica': () => processTree(postmasters.replica),
          'load generator': () => [process.pid],
        });
        meter.start();
        const load = await replay(`address lookups through the gateway, ${t.name}`, system.gatewayUrl, paths, {
          connections,
          duration,
          key,
        });
        const cpu = meter.stop();
        const requests = load.rps * duration;
        runs.push({
          topology: t.name,
          load,
          cpuMsPerRequest: Object.fromEntries(Object.entries(cpu).map(([n, s]) => [n, (s * 1000) / requests])),
        });
      } finally {
        await supervisor.stop();
      }
    }
    await pool.end();

    const mean = (name: string): Run => ({
      topology: name,
      ...averageRuns(runs.filter((r) => r.topology === name)),
    });
    const [a, b] = topologies.map((t) => mean(t.name)) as [Run, Run];
    for (const r of [a, b]) reportFigure({ ...loadFigure('topology', r.load), cpuMsPerRequest: r.cpuMsPerRequest });
    console.log(`\n### bench:topology, ${records.toLocaleString('en-US')} records, ${duration} s each, alternated`);
    console.log(
      `machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}\n`,
    );
    const cells = [a, b].map((r) => {
      const rounds = runs
        .filter((x) => x.topology === r.topology)
        .map((x) => Math.round(x.load.rps).toLocaleString('en-US'))
        .join(', ');
      return [
        r.topology,
        Math.round(r.load.rps).toLocaleString('en-US'),
        r.load.p50.toFixed(1),
        r.load.p99.toFixed(1),
        r.load.errors,
        rounds,
      ];
    });
    cells.push([
      'past one node vs single',
      `${((b.load.rps / a.load.rps) * 100).toFixed(0)}%`,
      (b.load.p50 - a.load.p50).toFixed(1),
      (b.load.p99 - a.load.p99).toFixed(1),
      '',
      '',
    ]);
    console.log(
      markdownTable(
        ['topology', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', { name: 'rounds (req/s)', text: true }],
        cells,
      ),
    );
    console.log('\nCPU milliseconds per request, by process (process CPU time over the run / requests answered):\n');
    const total = (r: Run) => Object.values(r.cpuMsPerRequest).reduce((s, x) => s + x, 0);
    console.log(
      markdownTable(
        ['process', a.topology, b.topology],
        [
          ...Object.keys(a.cpuMsPerRequest).map((g) => [
            g,
            a.cpuMsPerRequest[g]!.toFixed(3),
            b.cpuMsPerRequest[g]!.toFixed(3),
          ]),
          ['**all**', `**${total(a).toFixed(3)}**`, `**${total(b).toFixed(3)}**`],
        ],
      ),
    );
    if (a.load.errors + b.load.errors > 0)
      console.log('\n**Some answers were not 2xx: those rates are not those of lookups.**');
  } finally {
    await cluster?.stop();
    await single?.stop();
    await pg.close();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(
    `bench failed: ${err.stack ?? err}\nNeeds PostgreSQL's server programs (initdb, pg_basebackup) and redis-server.`,
  );
  process.exit(1);
});
