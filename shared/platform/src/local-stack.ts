// What `npm start` ran with (its PostgreSQL, its Redis, its ports), kept in .data/local-stack.json, so that every
// other npm script on this machine (admin, ingest, the benches, example:client, loadtest) talks to the same system
// instead of quietly using 127.0.0.1's defaults. An environment variable always wins; each script says which it uses.
// Only node: imports here: the admin CLI's help and the client example load this without pg, ioredis or telemetry.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder npm start keeps its state in (data, the demo key, the installation's secrets, these settings). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const LOCAL_STACK_FILE = '.data/local-stack.json';

export interface LocalStackPorts {
  gateway: number;
  lookup: number;
  autocomplete: number;
  billing: number;
  plans: number;
  admin: number;
  /** The first internal port (/metrics, /livez, /readyz); one per process from there. */
  internal: number;
}

export interface LocalStack {
  /** When npm start wrote it (ISO 8601). */
  savedAt: string;
  databaseUrl: string;
  databaseReadUrl?: string;
  redisUrl: string;
  redisClusterNodes?: string;
  redisPrefix: string;
  ports: LocalStackPorts;
  /** The gateway's API base URL: http://127.0.0.1:<gateway>/api/v1. */
  baseUrl: string;
  /** The internal admin API (never routed by the gateway). */
  adminUrl: string;
}

/** Written by npm start once its stores answer and its ports are chosen (readable by its user only: URLs may hold passwords). */
export function saveLocalStack(s: Omit<LocalStack, 'savedAt'>, root = REPO_ROOT): string {
  const path = join(root, LOCAL_STACK_FILE);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ savedAt: new Date().toISOString(), ...s }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

/** The settings npm start last ran with, or undefined when it never ran here (or the file is not readable). */
export function readLocalStack(root = REPO_ROOT): LocalStack | undefined {
  const path = join(root, LOCAL_STACK_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const s = JSON.parse(readFileSync(path, 'utf8')) as LocalStack;
    return typeof s.databaseUrl === 'string' && typeof s.redisUrl === 'string' && s.ports ? s : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a script needs: the stores (DATABASE_URL, REDIS_URL or REDIS_CLUSTER_NODES), npm start's key prefix in them
 * (REDIS_PREFIX: the admin CLI; a bench keeps its own), the API (BASE_URL, API_KEY) or the admin API (ADMIN_URL,
 * ADMIN_TOKEN).
 */
export type Needs = 'stores' | 'prefix' | 'api' | 'admin';

/** A URL as it may be printed: its password hidden. */
export const redacted = (url: string) => url.replace(/(\/\/[^:/@]+):[^@/]*@/, '$1:***@');

const readSecret = (root: string, name: string) => {
  const path = join(root, '.data', name);
  return existsSync(path) ? readFileSync(path, 'utf8').trim() || undefined : undefined;
};

/**
 * Fills the environment from npm start's settings for what `needs` names and the environment does not set, then
 * prints (to stderr) which stores and URLs the script uses and where each came from. A group is taken whole or not
 * at all: DATABASE_URL set keeps the saved DATABASE_READ_URL out; REDIS_URL or REDIS_CLUSTER_NODES set keeps both
 * saved Redis settings out. PRA_LOCAL_STACK=ignore ignores the file. Returns the lines printed.
 */
export function useLocalStack(
  script: string,
  needs: readonly Needs[] = ['stores'],
  o: { root?: string; env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): string[] {
  const env = o.env ?? process.env;
  const root = o.root ?? REPO_ROOT;
  // A test run never reads the developer's .data (a spawned CLI would reach npm start's stores); a test passes root.
  const ignored = env.PRA_LOCAL_STACK === 'ignore' || (o.root === undefined && env.VITEST !== undefined);
  const saved = ignored ? undefined : readLocalStack(root);
  const from = saved ? `as npm start last ran: ${LOCAL_STACK_FILE}` : undefined;
  const lines: string[] = [];
  const say = (what: string, value: string, source: string) => lines.push(`${what} ${value} (${source})`);
  const fallback = 'the default: npm start has not run here';

  if (needs.includes('stores')) {
    if (env.DATABASE_URL) say('PostgreSQL', redacted(env.DATABASE_URL), 'DATABASE_URL');
    else if (saved) {
      env.DATABASE_URL = saved.databaseUrl;
      if (saved.databaseReadUrl && !env.DATABASE_READ_URL) env.DATABASE_READ_URL = saved.databaseReadUrl;
      say('PostgreSQL', redacted(saved.databaseUrl), from!);
    } else say('PostgreSQL', 'postgres://postgres@127.0.0.1:5432/property_records', fallback);

    if (env.REDIS_URL || env.REDIS_CLUSTER_NODES) {
      const which = env.REDIS_CLUSTER_NODES ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL';
      say('Redis', env.REDIS_CLUSTER_NODES ? `cluster ${env.REDIS_CLUSTER_NODES}` : redacted(env.REDIS_URL!), which);
    } else if (saved) {
      env.REDIS_URL = saved.redisUrl;
      if (saved.redisClusterNodes) env.REDIS_CLUSTER_NODES = saved.redisClusterNodes;
      say('Redis', saved.redisClusterNodes ? `cluster ${saved.redisClusterNodes}` : redacted(saved.redisUrl), from!);
    } else say('Redis', 'redis://127.0.0.1:6379', fallback);
  }
  if (needs.includes('prefix') && !env.REDIS_PREFIX && saved) env.REDIS_PREFIX = saved.redisPrefix;
  if (needs.includes('api')) {
    if (env.BASE_URL) say('API', env.BASE_URL, 'BASE_URL');
    else if (saved) {
      env.BASE_URL = saved.baseUrl;
      say('API', saved.baseUrl, from!);
    } else say('API', 'http://127.0.0.1:8080/api/v1', fallback);
    if (env.API_KEY) lines.push('key: API_KEY');
    else {
      const key = ignored ? undefined : readSecret(root, 'demo-api-key');
      if (key) env.API_KEY = key;
      lines.push(key ? 'key: the demo key npm start keeps in .data/demo-api-key' : 'key: none (set API_KEY)');
    }
  }
  if (needs.includes('admin')) {
    if (env.ADMIN_URL) say('admin API', env.ADMIN_URL, 'ADMIN_URL');
    else if (saved) {
      env.ADMIN_URL = saved.adminUrl;
      say('admin API', saved.adminUrl, from!);
    }
    if (!env.ADMIN_TOKEN) {
      const token = ignored ? undefined : readSecret(root, 'admin-token');
      if (token) env.ADMIN_TOKEN = token;
    }
  }
  const log = o.log ?? ((l: string) => console.error(l));
  for (const line of lines) log(`[${script}] ${line}`);
  return lines;
}
