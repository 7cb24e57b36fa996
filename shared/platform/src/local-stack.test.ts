// npm start's settings reach the other npm scripts: saved once, read back, the environment always winning, a group
// (the database, Redis) taken whole or not at all, and every script saying which stores it uses and why.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_STACK_FILE, readLocalStack, redacted, saveLocalStack, useLocalStack } from './local-stack.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'pra-local-stack-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const started = {
  databaseUrl: 'postgres://postgres:secret@127.0.0.1:5432/newcomer_try',
  redisUrl: 'redis://127.0.0.1:6379/5',
  redisPrefix: 'pra:',
  ports: {
    gateway: 18380,
    lookup: 18381,
    autocomplete: 18382,
    billing: 18383,
    plans: 18384,
    admin: 18390,
    internal: 19464,
  },
  baseUrl: 'http://127.0.0.1:18380/api/v1',
  adminUrl: 'http://127.0.0.1:18390',
};

function run(needs: Parameters<typeof useLocalStack>[1], env: NodeJS.ProcessEnv = {}) {
  const lines: string[] = [];
  useLocalStack('admin', needs, { root, env, log: (l) => lines.push(l) });
  return { env, lines };
}

describe('local stack settings', () => {
  it('are saved by npm start (its user only) and read back', () => {
    const path = saveLocalStack(started, root);
    expect(path).toBe(join(root, LOCAL_STACK_FILE));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readLocalStack(root)).toMatchObject(started);
    writeFileSync(path, '{not json');
    expect(readLocalStack(root)).toBeUndefined();
  });

  it("fill what the environment does not set, saying so, the database's password hidden", () => {
    saveLocalStack(started, root);
    const { env, lines } = run(['stores', 'prefix']);
    expect(env).toMatchObject({ DATABASE_URL: started.databaseUrl, REDIS_URL: started.redisUrl, REDIS_PREFIX: 'pra:' });
    expect(lines[0]).toMatch(
      /^\[admin\] PostgreSQL postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:5432\/newcomer_try \(as npm start last ran: \.data\/local-stack\.json\)$/,
    );
    expect(lines[1]).toMatch(/^\[admin\] Redis redis:\/\/127\.0\.0\.1:6379\/5 \(as npm start last ran/);
    expect(lines.join('\n')).not.toMatch(/secret/);
  });

  it('never override the environment, and take a group whole or not at all', () => {
    saveLocalStack({ ...started, databaseReadUrl: 'postgres://replica/x', redisClusterNodes: '10.0.0.1:7000' }, root);
    const { env, lines } = run(['stores'], { DATABASE_URL: 'postgres://other/db', REDIS_URL: 'redis://other:6380' });
    expect(env.DATABASE_URL).toBe('postgres://other/db');
    // The saved replica belongs to the saved primary; the saved cluster to the saved Redis.
    expect(env.DATABASE_READ_URL).toBeUndefined();
    expect(env.REDIS_CLUSTER_NODES).toBeUndefined();
    expect(lines).toEqual([
      '[admin] PostgreSQL postgres://other/db (DATABASE_URL)',
      '[admin] Redis redis://other:6380 (REDIS_URL)',
    ]);
    // A bench keeps its own key prefix: 'prefix' not asked, REDIS_PREFIX not set.
    expect(env.REDIS_PREFIX).toBeUndefined();
  });

  it('give the API and the admin API of npm start, with its demo key and admin token', () => {
    saveLocalStack(started, root);
    writeFileSync(join(root, '.data', 'demo-api-key'), 'pra_live_demo\n');
    writeFileSync(join(root, '.data', 'admin-token'), 'adm_token\n');
    const { env, lines } = run(['api', 'admin']);
    expect(env).toMatchObject({
      BASE_URL: started.baseUrl,
      API_KEY: 'pra_live_demo',
      ADMIN_URL: started.adminUrl,
      ADMIN_TOKEN: 'adm_token',
    });
    expect(lines).toContain('[admin] key: the demo key npm start keeps in .data/demo-api-key');
    expect(run(['api'], { BASE_URL: 'http://x/api/v1', API_KEY: 'k' }).lines).toEqual([
      '[admin] API http://x/api/v1 (BASE_URL)',
      '[admin] key: API_KEY',
    ]);
  });

  it('say the defaults when npm start never ran here, and are ignored on request', () => {
    const { env, lines } = run(['stores']);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(lines[0]).toBe(
      '[admin] PostgreSQL postgres://postgres@127.0.0.1:5432/property_records (the default: npm start has not run here)',
    );
    saveLocalStack(started, root);
    expect(run(['stores'], { PRA_LOCAL_STACK: 'ignore' }).env.DATABASE_URL).toBeUndefined();
  });

  it('hide a password in a printed URL', () => {
    expect(redacted('postgres://u:p@h:5432/d')).toBe('postgres://u:***@h:5432/d');
    expect(redacted('rediss://default:pw@h:6380/2')).toBe('rediss://default:***@h:6380/2');
    expect(redacted('redis://127.0.0.1:6379/5')).toBe('redis://127.0.0.1:6379/5');
  });
});
