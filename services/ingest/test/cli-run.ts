// The first load of a one-file roll as a user runs it, for bench:import and cli-import.test.ts: `npm run ingest --
// import` in a fresh process, into a fresh database. bench:import's other figures time importCsv in a process that
// has already imported (its code compiled, its heap grown); a fresh process pays for both. The command is
// package.json's `ingest` script (its Node options included), run with this process's node; the rate is the one the
// CLI prints (importCsv's time, not the process's start, which is given beside it).
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPool, dropDatabase, ensureDatabase } from '@pra/platform';
import { migrateRecords } from '../src/data/migrate.js';
import { readSummaryLine } from '../src/importer/summary-line.js';
import { splitNodeArgs } from '../src/importer/worker-argv.js';

/** The repository's root, where package.json's scripts run. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** `npm run ingest -- <args>` as a user runs it, in a process of its own, against the database `url`; waited for. */
export function runIngest(url: string, ...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [...ingestArgs(ROOT), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, DATABASE_URL: url },
  });
}

/** An empty store at this code's schema in the database `url`, dropped first if it was there. */
export async function freshStore(url: string): Promise<void> {
  await dropDatabase(url);
  await ensureDatabase(url);
  const pool = createPool(url, 1, 'cli-run');
  try {
    await migrateRecords(pool);
  } finally {
    await pool.end();
  }
}

/**
 * package.json's `ingest` script as arguments to node (`node --min-semi-space-size=64 ... --import tsx cli.ts` → the
 * rest). `nodeOptions`: node's options instead of the script's own, its loaders (`--import tsx`) kept, to compare
 * options (bench:cli-options).
 */
export function ingestArgs(root: string, nodeOptions?: readonly string[]): string[] {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { ingest: string } })
    .scripts.ingest;
  const [node, ...args] = script.split(/\s+/);
  if (node !== 'node') throw new Error(`package.json's ingest script does not start with node: ${script}`);
  const { options, script: cli } = splitNodeArgs(args);
  if (!/\.[cm]?[jt]s$/.test(cli[0] ?? ''))
    throw new Error(`package.json's ingest script names no script to run after node's options: ${script}`);
  if (nodeOptions === undefined) return args;
  return [...nodeOptions, ...options.flatMap((o) => (o.loader ? o.args : [])), ...cli];
}

/** The node options package.json's `ingest` script gives (its loaders left out). */
export function ingestOptions(root: string): string[] {
  return splitNodeArgs(ingestArgs(root)).options.flatMap((o) => (o.loader ? [] : o.args));
}

export interface CliLoad {
  rows: number;
  /** What the CLI printed: rows read over importCsv's time. */
  rowsPerSecond: number;
  /** The process's whole run: node's start, loading the modules, the import and the report. */
  processSeconds: number;
}

/** A database made for cliFirstLoad, which drops it: a test's or a bench's (`pra_…`), named `…_cli…`. */
const CLI_DATABASE = /^\/pra_\w*_cli(_\w+)?$/;

/** A name for a database of cliFirstLoad's own: `pra_<what>_<random>_cli` (runs on one server cannot collide). */
export function cliDatabaseName(what: string): string {
  if (!/^\w+$/.test(what)) throw new Error(`a database name's part is letters, digits and _: '${what}'`);
  return `pra_${what}_${randomBytes(4).toString('hex')}_cli`;
}

/** Loads `file` through `mapping` with the CLI into the database `url`, made and migrated first, dropped after. */
export async function cliFirstLoad(
  root: string,
  url: string,
  mapping: string,
  file: string,
  /** node's options instead of the ingest script's (ingestArgs). */
  nodeOptions?: readonly string[],
): Promise<CliLoad> {
  // It drops the database before and after: only one named for it.
  if (!CLI_DATABASE.test(new URL(url).pathname))
    throw new Error(`cliFirstLoad needs a database of its own (pra_…_cli…): ${url}`);
  await freshStore(url);
  try {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [...ingestArgs(root, nodeOptions), 'import', '--mapping', mapping, '--file', file],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: url },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    const processSeconds = (performance.now() - started) / 1000;
    const printed = readSummaryLine(out);
    if (code !== 0 || !printed) throw new Error(`the CLI import of ${file} failed (exit ${code}):\n${out}\n${err}`);
    return { ...printed, processSeconds };
  } finally {
    await dropDatabase(url);
  }
}
