// npm run build: the bundles run with plain node (no tsx, no compiler), find their migrations and data files, and
// serve. Built into a directory of its own inside the repository (the bundles import node_modules from it).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@pra/platform/testing';
import { createPool, dropDatabase, ensureDatabase, withDatabase } from '@pra/platform';
import { buildAll, ENTRY_POINTS, WORKER_ENTRIES } from '@pra/stack/build';
import { COUNTY_ROLLS } from '@pra/ingest/import';
import { type ThreadTelemetry, telemetryThreadsProbe } from '@pra/platform/telemetry/testing';
import { IMAGE_LAYOUT_ENV, imageLayout } from './image-layout.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = join(root, 'dist', `build-test-${randomBytes(4).toString('hex')}`);

/**
 * Runs a bundle with node (`args`: node's, before it; `commandArgs`: the bundle's own); resolves with its exit code and
 * output, or with the port it listens on.
 */
function run(
  bundle: string,
  env: Record<string, string>,
  args: string[] = [],
  commandArgs: string[] = [],
  /** Where dist/ is: the repository (its root the working directory), or an image's layout (imageLayout). */
  at: { dist: string; cwd: string } = { dist: out, cwd: root },
) {
  const child = spawn(process.execPath, [...args, join(at.dist, `${bundle}.js`), ...commandArgs], {
    cwd: at.cwd,
    env: { PATH: process.env.PATH!, INTERNAL_PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = new Promise<number>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /"port":(\d+)/.exec(output);
      if (m) resolve(Number(m[1]));
    });
    void exited.then((code) => reject(new Error(`${bundle} exited (${code}): ${output}`)));
  });
  port.catch(() => {});
  return { child, exited, port, output: () => output };
}

/**
 * What loading a bundle loads before any dynamic import(): the bundle and the chunks it imports statically, the npm
 * packages they import, and the source files their code came from (their source maps).
 */
function staticGraph(bundle: string): { files: string[]; packages: string[]; sources: string[] } {
  const files: string[] = [];
  const packages = new Set<string>();
  const sources: string[] = [];
  const pending = [bundle];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.includes(file)) continue;
    files.push(file);
    const text = readFileSync(file, 'utf8');
    // esbuild's static imports and re-exports: `import … from "x"`, `import "x"`, `export … from "x"`, at the start of
    // a line (esbuild writes them so).
    for (const [, spec] of text.matchAll(/^(?:import|export)\s(?:[^;]*?\sfrom\s)?["']([^"']+)["'];?$/gm)) {
      if (spec!.startsWith('.')) pending.push(join(dirname(file), spec!));
      else packages.add(spec!);
    }
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    sources.push(...map.sources);
  }
  return { files, packages: [...packages], sources };
}

describe('npm run build', () => {
  let databaseUrl: string;
  beforeAll(async () => {
    await buildAll(out);
    databaseUrl = withDatabase(inject('databaseUrl'), `pra_build_${randomBytes(4).toString('hex')}`);
    await ensureDatabase(databaseUrl);
  }, 60_000);
  afterAll(async () => {
    rmSync(out, { recursive: true, force: true });
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  it('writes one bundle per entry point, with no TypeScript or workspace import left in it or in its chunks', async () => {
    for (const name of Object.keys(ENTRY_POINTS)) expect(existsSync(join(out, `${name}.js`)), name).toBe(true);
    for (const file of readdirSync(out).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(join(out, file), 'utf8');
      expect(text, file).not.toMatch(/from ["']@pra\//);
      expect(text, file).not.toMatch(/from ["']tsx/);
    }
  });

  it("migrates an empty database with node dist/migrate.js (the chart's Job): the SQL files are found, the webhook worker starts on it", async () => {
    const m = run('migrate', { DATABASE_URL: databaseUrl });
    expect(await m.exited, m.output()).toBe(0);
    const pool = createPool(databaseUrl, 1);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema IN ('records', 'billing', 'search')`,
    );
    // The webhooks stream too (issue 38): its worker's pods start after this Job and find their tables.
    const { rows: webhooks } = await pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'webhooks'`,
    );
    await pool.end();
    expect(rows[0].n).toBeGreaterThan(5);
    expect(webhooks.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(['endpoints', 'outbox', 'deliveries', 'event_bodies']),
    );
    // The chart's webhooks-worker (dist/webhooks-worker.js) starts on what the Job made.
    const worker = run('webhooks-worker', {
      DATABASE_URL: databaseUrl,
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: `${inject('redisPrefix')}build${randomBytes(3).toString('hex')}:`,
    });
    try {
      await expect.poll(() => worker.output(), { timeout: 30_000, interval: 100 }).toMatch(/webhook worker started/);
    } finally {
      worker.child.kill();
    }
  }, 60_000);

  it("imports and generates in the image's layout, the CLI's worker threads started from their own bundles", async () => {
    for (const [name, w] of Object.entries(WORKER_ENTRIES)) {
      expect(existsSync(join(out, `${name}.js`)), name).toBe(true);
      // The shim registers tsx, which the image does not have, then imports the TypeScript source, which it lacks too.
      expect(readFileSync(join(out, 'ingest.js'), 'utf8')).not.toContain(w.shim.split('/').pop());
    }
    const layoutDir = mkdtempSync(join(tmpdir(), 'pra-image-'));
    const url = withDatabase(inject('databaseUrl'), `pra_build_${randomBytes(4).toString('hex')}`);
    const started: ReturnType<typeof run>[] = [];
    try {
      const { copied } = imageLayout(root, layoutDir, out);
      expect(copied).toContain('services/ingest/mappings');
      // The production packages only, as the image's deps stage installs them.
      expect(existsSync(join(layoutDir, 'node_modules/pg/package.json'))).toBe(true);
      for (const dev of ['tsx', 'esbuild', 'vitest'])
        expect(existsSync(join(layoutDir, 'node_modules', dev)), dev).toBe(false);
      await ensureDatabase(url);
      const env = { DATABASE_URL: url, ...IMAGE_LAYOUT_ENV };
      // As the image's entry point runs a command: OpenTelemetry first (its SDK not started in the worker threads,
      // which inherit the --import: register.ts).
      const dist = join(layoutDir, relative(root, out));
      const node = ['--enable-source-maps', '--import', join(dist, 'telemetry-register.js')];
      const at = { dist, cwd: layoutDir };
      // generate always works in worker threads (generate-worker), and reads the generator's reference lists.
      const generate = run('ingest', env, node, ['generate', '--count', '300'], at);
      started.push(generate);
      expect(await generate.exited, generate.output()).toBe(0);
      // A roll this small is imported in the main thread unless told otherwise: one import worker.
      const mapping = join(layoutDir, 'services/ingest/mappings/lebanon-nh.json');
      const { file } = COUNTY_ROLLS.lebanon[0];
      const args = ['import', '--mapping', mapping, '--file', file, '--workers', '1'];
      const imported = run('ingest', env, node, args, at);
      started.push(imported);
      expect(await imported.exited, imported.output()).toBe(0);
      expect(imported.output()).toMatch(/5,660 rows read in/);
      const pool = createPool(url, 1);
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM records.properties');
      await pool.end();
      expect(rows[0]!.n).toBe(300 + 5_660);
    } finally {
      for (const p of started) p.child.kill('SIGKILL');
      await dropDatabase(url).catch(() => {});
      rmSync(layoutDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a missing name list stops an import with one line naming the file; commands that read no owner run without it', async () => {
    const layoutDir = mkdtempSync(join(tmpdir(), 'pra-image-'));
    try {
      imageLayout(root, layoutDir, out);
      const list = join(layoutDir, 'services/ingest/reference/ssa-2010-first-names-top1000.csv');
      expect(existsSync(list)).toBe(true);
      rmSync(list);
      const env = { DATABASE_URL: databaseUrl, ...IMAGE_LAYOUT_ENV };
      const at = { dist: join(layoutDir, relative(root, out)), cwd: layoutDir };
      const mapping = join(layoutDir, 'services/ingest/mappings/lebanon-nh.json');
      const { file } = COUNTY_ROLLS.lebanon[0];
      for (const extra of [[], ['--dry-run']]) {
        const imported = run('ingest', env, [], ['import', '--mapping', mapping, '--file', file, ...extra], at);
        expect(await imported.exited, imported.output()).toBe(1);
        expect(imported.output()).toMatch(
          /ingest failed: the reference list \S*ssa-2010-first-names-top1000\.csv cannot be read .*restore it/,
        );
        // The CLI's message, not an uncaught error's stack.
        expect(imported.output()).not.toMatch(/^\s+at /m);
        expect(imported.output()).not.toMatch(/rows read in/);
      }
      const removed = run('ingest', env, [], ['remove', '--source', 'import:lebanon-nh'], at);
      expect(await removed.exited, removed.output()).toBe(0);
      expect(removed.output()).toMatch(/removed 0 records of import:lebanon-nh/);
    } finally {
      rmSync(layoutDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("starts OpenTelemetry in the main thread only: a worker thread, which inherits the image's --import, loads none of its modules", () => {
    // The entry and the chunks it imports statically (what a worker loads) name no OpenTelemetry package and hold no
    // code of one: the SDK is imported (dynamically) only where it starts.
    const loaded = staticGraph(join(out, 'telemetry-register.js'));
    expect(loaded.files.length).toBeGreaterThan(0);
    // OpenTelemetry's packages, and those built on them (bullmq-otel).
    expect(loaded.packages.filter((p) => /opentelemetry|otel/.test(p))).toEqual([]);
    expect(loaded.sources.filter((f) => f.includes('node_modules/'))).toEqual([]);
    const layoutDir = mkdtempSync(join(tmpdir(), 'pra-image-'));
    try {
      imageLayout(root, layoutDir, out);
      const dist = join(layoutDir, relative(root, out));
      // Metrics alone, then tracing as well (the ESM hook registered too).
      for (const [env, providers] of [
        [{ OTEL_METRICS_EXPORTER: 'none' }, ['metrics']],
        [{ OTEL_METRICS_EXPORTER: 'none', OTEL_TRACES_EXPORTER: 'console' }, ['metrics', 'trace']],
      ] as const) {
        const output = execFileSync(
          process.execPath,
          ['--import', join(dist, 'telemetry-register.js'), '--input-type=module', '-e', telemetryThreadsProbe()],
          // A probe that hangs fails the test (vitest's own timeout cannot stop a synchronous call).
          {
            cwd: layoutDir,
            encoding: 'utf8',
            timeout: 45_000,
            env: { PATH: process.env.PATH!, ...IMAGE_LAYOUT_ENV, ...env },
          },
        );
        const { main, worker } = JSON.parse(output.trim().split('\n').pop()!) as Record<string, ThreadTelemetry>;
        expect(main!.registered).toEqual(expect.arrayContaining([...providers]));
        expect(main!.modules).toBeGreaterThan(100);
        // Bundled into the entry, the SDK's ~1,100 modules were loaded by every worker (~0.8 s of a worker's start).
        expect(worker).toEqual({ registered: [], modules: 0 });
      }
    } finally {
      rmSync(layoutDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('serves: lookup (with telemetry loaded by --import, as the image runs it) and plans', async () => {
    const env = {
      DATABASE_URL: inject('databaseUrl'),
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: inject('redisPrefix'),
      GATEWAY_HMAC_KEY: randomBytes(32).toString('hex'),
    };
    const lookup = run('lookup', { ...env, LOOKUP_PORT: '0' }, ['--import', join(out, 'telemetry-register.js')]);
    const plans = run('plans', { PLANS_PORT: '0' });
    try {
      const health = (await (await fetch(`http://127.0.0.1:${await lookup.port}/api/v1/health`)).json()) as {
        records: number;
      };
      expect(health).toMatchObject({ status: 'ok', db: 'connected' });
      expect(health.records).toBeGreaterThan(0);
      const doc = await fetch(`http://127.0.0.1:${await plans.port}/openapi.yaml`);
      expect(doc.status).toBe(200);
      expect(await doc.text()).toMatch(/^openapi: 3\.0\.3/m);
    } finally {
      lookup.child.kill();
      plans.child.kill();
    }
    expect(existsSync(join(out, 'telemetry-register.js'))).toBe(true);
  }, 60_000);
});
