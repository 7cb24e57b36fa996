// CI's k6 smoke run: the whole system in this process (startSystem in-process: gateway, every service, the admin API)
// on this run's database and Redis prefix, and `npm run loadtest -- smoke` for 20 s against it, so the scenarios,
// the runner and the provisioning cannot rot. Passes only if every k6 threshold holds.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { PostgresSearchIndex } from '@pra/autocomplete/postgres-index';
import { migrateSearch } from '@pra/autocomplete/migrate';
import { runCatchUp } from '@pra/autocomplete/indexing';
import { startSystem, type RunningSystem } from '@pra/stack/system';
import { exportFixtures } from '../src/fixtures.js';
import { findK6, K6_MODULE, K6_VERSION } from '../src/k6-binary.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// .ci/run installs k6 before the tests; elsewhere, building it here would take minutes inside a test.
const k6 = findK6();
if (!k6 && process.env.CI)
  throw new Error(`k6 ${K6_VERSION} is not installed: .ci/run installs it (go install ${K6_MODULE}@${K6_VERSION})`);
if (!k6)
  console.log(
    `[loadtests] SKIP: k6 smoke run (k6 ${K6_VERSION} not installed: go install ${K6_MODULE}@${K6_VERSION}, or npm run loadtest installs it)`,
  );
const HMAC = `hmac-${randomBytes(16).toString('hex')}`;
const ADMIN_TOKEN = randomBytes(24).toString('base64url');
let pool: Pool;
let f: BillingFixture;
let system: RunningSystem;

beforeAll(async () => {
  if (!k6) return;
  pool = createPool(inject('databaseUrl'), 6);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}k6${randomBytes(3).toString('hex')}:`);
  await migrateSearch(pool);
  await runCatchUp({ pool, index: new PostgresSearchIndex(pool) });
  system = await startSystem({
    placement: 'in-process',
    pool,
    billing: f,
    gatewayKey: HMAC,
    admin: { deps: f.deps, token: ADMIN_TOKEN },
  });
}, 120_000);

afterAll(async () => {
  if (!k6) return;
  await system?.stop();
  await f?.close();
  await pool?.end();
});

describe.skipIf(!k6)('k6 smoke run (20 s) through the local gateway', () => {
  it('passes every threshold and writes its JSON summary', async () => {
    const out = mkdtempSync(join(tmpdir(), 'pra-k6-'));
    const target = system.gatewayUrl;
    const admin = system.urls.admin!;
    // The sample's synthetic records only: other test files rewrite and remove their imported records in this
    // database while the run lasts, and a lookup of one would fail a check that has nothing to do with k6.
    const fixtures = join(out, 'fixtures.json');
    writeFileSync(fixtures, JSON.stringify(await exportFixtures(pool, 500, 'synthetic:%')));
    const args = [
      '--import',
      'tsx',
      'loadtests/run.ts',
      'smoke',
      '--target',
      target,
      '--admin',
      admin,
      // '=' form: a random token may start with '-', which parseArgs would take for an option.
      `--admin-token=${ADMIN_TOKEN}`,
      '--data',
      fixtures,
      '--duration',
      '20s',
      '--out',
      out,
    ];
    let output = '';
    const code = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, LOG_LEVEL: 'silent' } });
      child.stdout.on('data', (d: Buffer) => (output += d));
      child.stderr.on('data', (d: Buffer) => (output += d));
      child.on('exit', (c) => resolve(c ?? 1));
    });
    console.log(
      output
        .split('\n')
        .filter((l) => /smoke:|latency|PASS|FAIL/.test(l))
        .join('\n'),
    );
    expect(code, output).toBe(0);
    const summary = readdirSync(out).find((n) => n.startsWith('smoke-') && n.endsWith('.json'))!;
    const data = JSON.parse(readFileSync(join(out, summary), 'utf8'));
    expect(data.metrics.http_reqs.values.count).toBeGreaterThan(50);
    expect(data.metrics.checks.values.rate).toBe(1);
  }, 180_000);
});
