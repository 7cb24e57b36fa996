// A PostgreSQL primary and a streaming hot standby of a test's own, for the read-replica tests: initdb into a temp
// directory, on free ports, run as the `postgres` OS user when the test runs as root (PostgreSQL refuses root).
//
// Why not a replica of the machine's shared server: a base backup copies the whole cluster, and the shared one
// holds every other database on the machine (multi-GB benchmark stores here); and replication needs pg_hba.conf
// and server settings changed on a server that other engineers and test runs use. This pair is small, quick to
// make (a few seconds), and the test may stop, pause and restart its standby as it likes.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { metrics } from '@opentelemetry/api';
import pg from 'pg';
import { freePort } from './free-port.js';

export interface ReplicatedPostgres {
  primaryPort: number;
  replicaPort: number;
  /** A URL of `database` (by default the one made at start) on either server, as `user` (postgres). */
  url(server: 'primary' | 'replica', opts?: { database?: string; user?: string }): string;
  /** Stops the standby at once (`pg_ctl stop -m immediate`: its backends die as in a crash). */
  stopReplica(): Promise<void>;
  /** Starts the standby again (after stopReplica); resolves once it accepts read-only connections. */
  startReplica(): Promise<void>;
  /** Resolves once the standby has replayed all the WAL the primary had written when this was called. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops both servers (immediately) and removes their directories. Safe to call twice, and after a failed start. */
  close(): Promise<void>;
}

export interface ReplicatedPostgresOptions {
  /** The database made on the primary before the base backup (so the standby starts with it). */
  database: string;
  /** Runs against the primary's `database` before the base backup: the schema and the data the standby starts with. */
  prepare?: (primaryUrl: string) => Promise<void>;
  /** More postgresql.conf settings for both servers (e.g. shared_preload_libraries). */
  settings?: Record<string, string>;
}

/** How long any one command may run (initdb, pg_ctl, pg_basebackup): a stuck one fails the test, never hangs it. */
const COMMAND_TIMEOUT_MS = 60_000;

/** The directory of PostgreSQL's server programs: PG_BINDIR, else the newest /usr/lib/postgresql/<v>/bin. */
export function postgresBinDir(): string {
  const fromEnv = process.env.PG_BINDIR;
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'pg_basebackup')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error('No PostgreSQL server programs found: install postgresql (apt-get) or set PG_BINDIR');
  return join(root, versions[0]!, 'bin');
}

/** True when the server's pg_stat_statements module is installed (a shared_preload_libraries candidate). */
export function hasPgStatStatements(binDir = postgresBinDir()): boolean {
  return existsSync(join(binDir, '..', 'lib', 'pg_stat_statements.so'));
}

function run(binDir: string, program: string, args: string[], cwd: string): Promise<string> {
  const asRoot = process.getuid?.() === 0;
  const file = asRoot ? 'runuser' : join(binDir, program);
  const argv = asRoot ? ['-u', 'postgres', '--', join(binDir, program), ...args] : args;
  return new Promise((resolve, reject) => {
    execFile(file, argv, { cwd, timeout: COMMAND_TIMEOUT_MS, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${program} ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** The postmaster's pid from its data directory, while it runs. */
function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startReplicatedPostgres(opts: ReplicatedPostgresOptions): Promise<ReplicatedPostgres> {
  const binDir = postgresBinDir();
  const root = await mkdtemp(join(tmpdir(), 'pra-replica-'));
  const primaryDir = join(root, 'primary');
  const replicaDir = join(root, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const pgctl = (dir: string, ...args: string[]) => run(binDir, 'pg_ctl', ['-D', dir, ...args], root);
  const start = (dir: string, name: string) =>
    pgctl(dir, '-l', join(root, `${name}.log`), '-w', '-t', '30', 'start').catch(async (err: Error) => {
      const log = await readFile(join(root, `${name}.log`), 'utf8').catch(() => '(no log)');
      throw new Error(`${err.message}\n${name}.log:\n${log.slice(-2000)}`);
    });
  const url = (server: 'primary' | 'replica', o: { database?: string; user?: string } = {}) =>
    `postgres://${o.user ?? 'postgres'}@127.0.0.1:${server === 'primary' ? primaryPort : replicaPort}/${o.database ?? opts.database}`;
  // A crash of the test process (an error thrown past afterAll) must not leave servers running.
  const killAll = () => {
    for (const dir of [primaryDir, replicaDir]) {
      const pid = postmasterPid(dir);
      if (pid)
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
    }
  };
  process.once('exit', killAll);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const dir of [replicaDir, primaryDir])
      if (postmasterPid(dir)) await pgctl(dir, '-m', 'immediate', '-w', '-t', '20', 'stop').catch(() => {});
    killAll();
    process.removeListener('exit', killAll);
    await rm(root, { recursive: true, force: true });
  };

  try {
    if (process.getuid?.() === 0) {
      const uid = Number((await execText('id', ['-u', 'postgres'])).trim());
      const gid = Number((await execText('id', ['-g', 'postgres'])).trim());
      await chown(root, uid, gid);
    }
    await run(
      binDir,
      'initdb',
      ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      root,
    );
    const settings: Record<string, string> = {
      listen_addresses: "'127.0.0.1'",
      port: String(primaryPort),
      unix_socket_directories: `'${root}'`,
      max_connections: '60',
      shared_buffers: '32MB',
      fsync: 'off',
      synchronous_commit: 'off',
      wal_level: 'replica',
      max_wal_senders: '4',
      // The standby may be stopped for a while: the WAL it has not received stays on the primary.
      wal_keep_size: '128MB',
      hot_standby: 'on',
      logging_collector: 'off',
      ...opts.settings,
    };
    await appendFile(
      join(primaryDir, 'postgresql.conf'),
      `\n# read-replica test\n${Object.entries(settings)
        .map(([k, v]) => `${k} = ${v}`)
        .join('\n')}\n`,
    );
    await writeFile(
      join(primaryDir, 'pg_hba.conf'),
      [
        'local all all trust',
        'host all all 127.0.0.1/32 trust',
        'local replication all trust',
        'host replication all 127.0.0.1/32 trust',
        '',
      ].join('\n'),
    );
    await start(primaryDir, 'primary');
    const admin = new pg.Client({ connectionString: url('primary', { database: 'postgres' }) });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${opts.database.replace(/"/g, '""')}"`);
    } finally {
      await admin.end();
    }
    await opts.prepare?.(url('primary'));
    // -R writes primary_conninfo and standby.signal; -c fast: no waiting for a spread checkpoint; --no-sync: a
    // test's copy need not reach the disk.
    await run(
      binDir,
      'pg_basebackup',
      [
        ['-D', replicaDir, '-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres'],
        ['-X', 'stream', '-R', '-c', 'fast', '--no-sync'],
      ].flat(),
      root,
    );
    await appendFile(join(replicaDir, 'postgresql.conf'), `\nport = ${replicaPort}\n`);
    await start(replicaDir, 'replica');
  } catch (err) {
    await close();
    throw err;
  }

  return {
    primaryPort,
    replicaPort,
    url,
    stopReplica: async () => {
      await pgctl(replicaDir, '-m', 'immediate', '-w', '-t', '20', 'stop');
    },
    startReplica: async () => {
      await start(replicaDir, 'replica');
    },
    caughtUp: async (timeoutMs = 15_000) => {
      const primary = new pg.Client({ connectionString: url('primary', { database: 'postgres' }) });
      const replica = new pg.Client({ connectionString: url('replica', { database: 'postgres' }) });
      await Promise.all([primary.connect(), replica.connect()]);
      try {
        const lsn = (await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
        const until = Date.now() + timeoutMs;
        for (;;) {
          const { rows } = await replica.query<{ done: boolean }>(
            'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
            [lsn],
          );
          if (rows[0]?.done) return;
          if (Date.now() > until) throw new Error(`the replica did not replay up to ${lsn} in ${timeoutMs} ms`);
          await sleep(50);
        }
      } finally {
        await Promise.all([primary.end(), replica.end()]);
      }
    },
    close,
  };
}

function execText(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { timeout: 10_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
}

class PullReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

/**
 * Makes the process's global meter provider an SDK one that the test reads on demand (before any instrument is
 * made: they come from the global meter). Returns the value of a gauge or counter by name (the sum of its points:
 * one for a gauge of one process); undefined when it reported nothing.
 */
export function installMetricsReader(): (name: string) => Promise<number | undefined> {
  const reader = new PullReader();
  if (!metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] })))
    throw new Error('a global meter provider was already set');
  return async (name) => {
    const { resourceMetrics } = await reader.collect();
    for (const scope of resourceMetrics.scopeMetrics)
      for (const m of scope.metrics) {
        if (m.descriptor.name !== name || m.dataPoints.length === 0) continue;
        return (m.dataPoints as { value: unknown }[]).reduce<number>(
          (sum, p) => sum + (typeof p.value === 'number' ? p.value : 0),
          0,
        );
      }
    return undefined;
  };
}
