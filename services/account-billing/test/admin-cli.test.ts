// `npm run admin -- help` answers at once: the usage is printed before any store, driver or telemetry module is
// loaded (a resolve hook lists every module the process asked for), and a mistake is named with the same usage.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { createPool } from '@pra/platform';
import { adminUsage } from '../src/admin-commands.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// Every specifier the process resolves, printed at exit.
const HOOK =
  "data:text/javascript,import { registerHooks } from 'node:module'; const seen = new Set(); " +
  'registerHooks({ resolve(s, c, n) { seen.add(s); return n(s, c); } }); ' +
  "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify([...seen]) + '\\n'));";

function admin(...args: string[]): Promise<{ code: number; out: string; err: string; loaded: string[] }> {
  return adminWith({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, ...args);
}

function adminWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; out: string; err: string; loaded: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', HOOK, '--import', 'tsx', 'services/account-billing/src/cli.ts', ...args],
      // Stores nobody answers on: a command that reached them would fail, not hang the test.
      {
        cwd: root,
        env: { ...process.env, ...env, PRA_LOCAL_STACK: 'ignore' },
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      const line = err.split('\n').find((l) => l.startsWith('LOADED ')) ?? 'LOADED []';
      resolve({ code: code ?? 1, out, err, loaded: JSON.parse(line.slice('LOADED '.length)) as string[] });
    });
  });
}

const heavy = (loaded: string[]) => loaded.filter((s) => /^(pg|ioredis|bullmq)$|telemetry|@opentelemetry/.test(s));

describe('npm run admin', () => {
  it('help prints every command without loading pg, ioredis or telemetry', async () => {
    const r = await admin('help');
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${adminUsage()}\n`);
    // The probe sees package and file imports alike (tsx names the file by its .ts).
    expect(r.loaded).toEqual(expect.arrayContaining(['@pra/core/errors', '@pra/platform/local-stack']));
    expect(r.loaded.some((s) => s.includes('admin-commands'))).toBe(true);
    expect(heavy(r.loaded)).toEqual([]);
    const short = await admin('-h');
    expect(short.out).toBe(`${adminUsage()}\n`);
  });

  it('names an unknown command, with the usage, exit 2, still loading nothing heavy', async () => {
    const r = await admin('grant-everything');
    expect(r.code).toBe(2);
    expect(r.err).toContain("admin: unknown command 'grant-everything'");
    expect(r.err).toContain(adminUsage());
    expect(heavy(r.loaded)).toEqual([]);
  });
});

describe('npm run admin -- set-limits, a limit it cannot take', () => {
  it('is named before any store is reached, exit 2', async () => {
    for (const bad of ['abc', '2.5', '0', '3000000000', '0x10', '1e2', ' 7', 'none']) {
      const r = await admin('set-limits', '--account', 'a@example.com', '--quota', bad);
      expect([r.code, r.err], bad).toEqual([2, expect.stringContaining(`--quota must be a whole number`)]);
      expect(r.err, bad).toContain(`not '${bad}'`);
      expect(heavy(r.loaded), bad).toEqual([]);
    }
    const none = await admin('set-limits', '--account', 'a@example.com', '--rate', 'none');
    expect(none.err).toContain(`'none' is not "no limit"`);
    const neither = await admin('set-limits', '--account', 'a@example.com');
    expect([neither.code, neither.err]).toEqual([2, expect.stringContaining('set-limits needs --rate or --quota')]);
  });
});

describe('npm run admin -- set-limits, on the real stores', () => {
  it("keeps a limit whose flag is left out, says 'default' for the tier's, and refuses what is not a limit", async () => {
    const env = {
      DATABASE_URL: inject('databaseUrl'),
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: `${inject('redisPrefix')}admincli:`,
    };
    const email = `limits-${process.pid}-${Date.now()}@example.com`;
    expect(
      (await adminWith(env, 'create-account', '--email', email, '--name', 'Limits', '--tier', 'starter')).code,
    ).toBe(0);
    const pool = createPool(env.DATABASE_URL, 1);
    const limits = async () =>
      (
        await pool.query(
          'SELECT rate_limit_override AS rate, daily_quota_override AS quota FROM billing.accounts WHERE email = $1',
          [email],
        )
      ).rows[0];
    try {
      const both = await adminWith(env, 'set-limits', '--account', email, '--rate', '30', '--quota', '500');
      expect([both.code, both.out.trim()]).toEqual([0, 'limits set: 30 per minute, 500 per day']);
      const rateOnly = await adminWith(env, 'set-limits', '--account', email, '--rate', '16');
      expect(rateOnly.out.trim()).toBe('limits set: 16 per minute, unchanged per day');
      expect(await limits()).toEqual({ rate: 16, quota: 500 });
      const tiers = await adminWith(env, 'set-limits', '--account', email, '--rate', 'default');
      expect(tiers.out.trim()).toBe("limits set: the tier's default per minute, unchanged per day");
      expect(await limits()).toEqual({ rate: null, quota: 500 });
      const bad = await adminWith(env, 'set-limits', '--account', email, '--quota', '3000000000');
      expect(bad.code).toBe(2);
      expect(await limits()).toEqual({ rate: null, quota: 500 });
    } finally {
      await pool.end();
    }
  }, 60_000);
});
