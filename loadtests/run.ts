// npm run loadtest -- <scenario> [--target URL] [options]
// Installs k6 when missing (pinned), provisions test accounts through the admin API, exports fixtures from the
// target's database (or takes --data), runs the k6 scenario, prints its summary and writes a JSON summary.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createPool } from '@pra/platform';
import { readLocalStack, useLocalStack } from '@pra/platform/local-stack';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { TIER_LIMITS, type TierName } from '@pra/core/tiers';
import type { Provisioned } from './k6/lib/types.js';
import { exportFixtures } from './src/fixtures.js';
import { ensureK6 } from './src/k6-binary.js';
import { ledgerCredits, provisionAccount, type AdminApi } from './src/provision.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const SCENARIOS = ['mixed', 'rate-limit', 'credit-exhaustion', 'soak', 'smoke'] as const;
type Scenario = (typeof SCENARIOS)[number];
const USAGE = `usage: npm run loadtest -- <${SCENARIOS.join(' | ')}> [options]
  --target URL        gateway host to test (default: the one npm start runs, from .data/local-stack.json, or http://127.0.0.1:8080)
  --admin URL         its admin API (default: npm start's, or http://127.0.0.1:8090); token from --admin-token, ADMIN_TOKEN or .data/admin-token
  --data FILE         fixtures JSON (default: exported from --database-url / DATABASE_URL, the target's database)
  --duration D        k6 duration (e.g. 30s, 2m; each scenario has its own default)
  --rate N            iterations per second (mixed, soak)
  --credits N         starting balance for credit-exhaustion (default 500)
  --tiers a,b         tiers for rate-limit (default free,starter,growth)
  --metrics URLS      comma-separated /metrics URLs the soak watches for memory growth (local default: every service)
  --out DIR           where the JSON summary goes (default loadtests/results)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    target: { type: 'string' },
    admin: { type: 'string' },
    'admin-token': { type: 'string' },
    data: { type: 'string' },
    'database-url': { type: 'string' },
    duration: { type: 'string' },
    rate: { type: 'string' },
    credits: { type: 'string', default: '500' },
    tiers: { type: 'string', default: 'free,starter,growth' },
    metrics: { type: 'string' },
    out: { type: 'string', default: join(root, 'loadtests', 'results') },
  },
});
const log = (l: string) => console.error(`[loadtest] ${l}`);
const fail = (msg: string, code = 2): never => {
  console.error(`[loadtest] ${msg}`);
  process.exit(code);
};

const scenario = positionals[0] as Scenario | undefined;
if (!scenario || !SCENARIOS.includes(scenario)) fail(`${scenario ? `unknown scenario '${scenario}'\n` : ''}${USAGE}`);
// Without --target, the system npm start runs here: its gateway, admin API, database and metrics ports (.data).
// With one, nothing of this machine's npm start is used (its admin token is never sent elsewhere).
const saved = values.target ? undefined : readLocalStack();
if (values.target) log(`--target ${values.target}: npm start's settings (.data/local-stack.json) are not used`);
else useLocalStack('loadtest', ['stores', 'api', 'admin']);
const target = (values.target ?? new URL(process.env.BASE_URL ?? 'http://127.0.0.1:8080').origin).replace(/\/$/, '');
values.admin ??= values.target ? 'http://127.0.0.1:8090' : (process.env.ADMIN_URL ?? 'http://127.0.0.1:8090');
const local = /^http:\/\/(127\.0\.0\.1|localhost)(:|\/|$)/.test(target);

function adminToken(): string {
  const given = values['admin-token'] ?? process.env.ADMIN_TOKEN;
  if (given) return given;
  const file = join(root, '.data', 'admin-token');
  if (local && existsSync(file)) return readFileSync(file, 'utf8').trim();
  return fail(
    'no admin token: pass --admin-token or set ADMIN_TOKEN (npm start keeps the local one in .data/admin-token)',
  );
}

async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(3_000) })).status < 500;
  } catch {
    return false;
  }
}

async function provision(admin: AdminApi, s: Scenario): Promise<Provisioned> {
  const unlimited = { ratePerMinute: 1_000_000, dailyQuota: null, override: true };
  switch (s) {
    case 'rate-limit': {
      const tiers = values.tiers!.split(',').map((t) => t.trim()) as TierName[];
      for (const t of tiers) if (!TIER_LIMITS[t]) fail(`unknown tier '${t}'`);
      return {
        tiers: await Promise.all(
          tiers.map((t) =>
            provisionAccount(admin, {
              label: `rate-${t}`,
              tier: t,
              credits: 1_000,
              ...TIER_LIMITS[t],
              override: false,
            }),
          ),
        ),
      };
    }
    case 'credit-exhaustion':
      return {
        exhaust: await provisionAccount(admin, {
          label: 'exhaust',
          tier: 'enterprise',
          credits: Number(values.credits),
          ...unlimited,
        }),
      };
    default:
      return {
        main: await provisionAccount(admin, { label: s, tier: 'enterprise', credits: 100_000_000, ...unlimited }),
      };
  }
}

function runK6(k6: string, s: Scenario, env: Record<string, string>): Promise<number> {
  const args = [
    'run',
    '--quiet',
    ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    join(root, 'loadtests', 'k6', 'scenarios', `${s}.ts`),
  ];
  return new Promise((resolve) => {
    const child = spawn(k6, args, { stdio: 'inherit', env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<void> {
  const s = scenario!;
  if (!(await reachable(`${target}/api/v1/health`))) {
    fail(
      `nothing answers at ${target}/api/v1/health: start the system with \`npm start\`, or pass --target <gateway URL>`,
    );
  }
  const k6 = ensureK6(log);
  const admin: AdminApi = { url: values.admin!.replace(/\/$/, ''), token: adminToken() };
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(values.out!, { recursive: true });
  const work = join(values.out!, `.${s}-${stamp}`);
  mkdirSync(work, { recursive: true });

  let fixturesFile = values.data;
  if (!fixturesFile) {
    const dbUrl = values['database-url'] ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
    log(
      `exporting fixtures from ${new URL(dbUrl).pathname.slice(1)} (pass --data FILE for a target whose database you cannot reach)`,
    );
    const pool = createPool(dbUrl, 2, 'loadtest');
    try {
      fixturesFile = join(work, 'fixtures.json');
      writeFileSync(fixturesFile, JSON.stringify(await exportFixtures(pool)));
    } catch (err) {
      fail(`could not export fixtures: ${(err as Error).message}`);
    } finally {
      await pool.end();
    }
  }
  log(`provisioning test accounts through ${admin.url}`);
  const accounts = await provision(admin, s).catch((err: Error) => fail(`provisioning failed: ${err.message}`));
  const accountsFile = join(work, 'accounts.json');
  writeFileSync(accountsFile, JSON.stringify(accounts), { mode: 0o600 });

  const resultFile = join(values.out!, `${s}-${stamp}.json`);
  const metrics =
    values.metrics ??
    (local && s === 'soak'
      ? [0, 1, 2, 3].map((i) => `http://127.0.0.1:${(saved?.ports.internal ?? 9464) + i}/metrics`).join(',')
      : '');
  const env: Record<string, string> = {
    BASE_URL: target,
    FIXTURES: fixturesFile!,
    ACCOUNTS: accountsFile,
    RESULT_FILE: resultFile,
    METRICS_URLS: metrics,
  };
  if (values.duration) env.DURATION = values.duration;
  if (values.rate) env.RATE = values.rate;
  log(`k6 run ${s} against ${target}`);
  let code = await runK6(k6, s, env);

  if (s === 'credit-exhaustion' && accounts.exhaust) {
    // The ledger must agree once the usage pipeline has caught up.
    const want = accounts.exhaust.credits;
    let ledger = await ledgerCredits(admin, accounts.exhaust.accountId);
    for (let i = 0; i < 60 && ledger.used !== want; i++) {
      await new Promise((r) => setTimeout(r, 500));
      ledger = await ledgerCredits(admin, accounts.exhaust.accountId);
    }
    const ok = ledger.used === want && ledger.balance === 0;
    log(`ledger: ${ledger.used} credits charged of ${want}, balance ${ledger.balance}: ${ok ? 'PASS' : 'FAIL'}`);
    if (!ok && code === 0) code = 1;
  }
  // The test accounts' keys do not outlive the run on disk.
  rmSync(work, { recursive: true, force: true });
  log(`JSON summary: ${resultFile}`);
  log(code === 0 ? 'PASS: every threshold held' : `FAIL: k6 exited ${code} (a threshold failed, see above)`);
  process.exit(code);
}

main().catch((err: Error) => fail(`${err.message}`, 1));
