// What every benchmark here needs: services started as child processes on port 0, and autocannon replaying paths.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createRedis } from '../redis.js';
import { TELEMETRY_NODE_ARGS } from '../telemetry/settings.js';
import { processCpuSeconds, processName } from './proc-cpu.js';

export { processCpuSeconds, processTree } from './proc-cpu.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url)); // the repository root
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill();
});

export interface Started {
  port: number;
  pid: number;
  stop(): void;
  /** Sends a signal (fault tests: SIGKILL, SIGTERM). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves with the exit code once the process has ended (null when a signal ended it). */
  exited(): Promise<number | null>;
}

/** Runs a TypeScript entry point; resolves with the port it prints as {"port": N} (0 for entries that print none). */
export function startProcess(
  entry: string,
  env: Record<string, string>,
  opts: { waitForPort?: boolean; telemetry?: boolean; nodeArgs?: string[] } = {},
): Promise<Started> {
  // With telemetry, as deployed: OpenTelemetry started by --import before the entry point.
  const child = spawn(
    process.execPath,
    [...(opts.telemetry ? TELEMETRY_NODE_ARGS : ['--import', 'tsx']), ...(opts.nodeArgs ?? []), entry],
    {
      cwd: root,
      // Internal ports on 0 (several services run at once); request logs off unless a benchmark asks for them;
      // development mode (a benchmark may call a service with its API key, without a gateway).
      env: { ...process.env, INTERNAL_PORT: '0', LOG_LEVEL: 'warn', PRA_DEVELOPMENT: '1', ...env },
      stdio: ['ignore', opts.waitForPort === false ? 'ignore' : 'pipe', 'inherit'],
    },
  );
  children.push(child);
  const ended = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const handle = (port: number): Started => ({
    port,
    pid: child.pid!,
    stop: () => child.kill('SIGTERM'),
    kill: (signal) => child.kill(signal),
    exited: () => ended,
  });
  if (opts.waitForPort === false) return Promise.resolve(handle(0));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /"port":(\d+)/.exec(d.toString());
      if (m) resolve(handle(Number(m[1])));
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with code ${code}`)));
  });
}

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Time spent in the service (its Server-Timing header), when asked for. */
  service?: { p50: number; p99: number };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** The q-quantile (0 to 1) of unsorted figures, as the load figures read it (the benches' one definition). */
export const quantile = (xs: readonly number[], q: number): number =>
  percentile(
    [...xs].sort((a, b) => a - b),
    q * 100,
  );

/** A load run with the CPU each process group used per request (milliseconds). */
export interface MeasuredRun {
  load: LoadResult;
  cpuMsPerRequest: Record<string, number>;
}

/** The mean of runs of one kind: rates, latencies and CPU per request averaged, non-2xx answers added up. */
export function averageRuns(rs: readonly MeasuredRun[]): MeasuredRun {
  const mean = (f: (r: MeasuredRun) => number) => rs.reduce((sum, r) => sum + f(r), 0) / rs.length;
  return {
    load: {
      ...rs[0]!.load,
      rps: mean((r) => r.load.rps),
      p50: mean((r) => r.load.p50),
      p99: mean((r) => r.load.p99),
      errors: rs.reduce((sum, r) => sum + r.load.errors, 0),
    },
    cpuMsPerRequest: Object.fromEntries(
      Object.keys(rs[0]!.cpuMsPerRequest).map((g) => [g, mean((r) => r.cpuMsPerRequest[g]!)]),
    ),
  };
}

/** Replays `paths` round-robin for `duration` seconds at `connections`. */
export async function replay(
  name: string,
  url: string,
  paths: readonly string[],
  o: { connections: number; duration: number; key?: string; serverTiming?: boolean },
): Promise<LoadResult> {
  let i = 0;
  const inService: number[] = [];
  const onResponse = (_status: number, _body: string, _ctx: object, headers?: IncomingHttpHeaders) => {
    const m = /dur=([\d.]+)/.exec(String(headers?.['server-timing'] ?? ''));
    if (m) inService.push(Number(m[1]));
  };
  const r = await autocannon({
    url,
    connections: o.connections,
    duration: o.duration,
    headers: o.key ? { authorization: `Bearer ${o.key}` } : {},
    requests: [
      {
        setupRequest: (req: any) => ({ ...req, path: paths[i++ % paths.length] }),
        ...(o.serverTiming ? { onResponse } : {}),
      },
    ],
  });
  inService.sort((a, b) => a - b);
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors,
    ...(o.serverTiming ? { service: { p50: percentile(inService, 50), p99: percentile(inService, 99) } } : {}),
  };
}

/** One figure of a benchmark, in the line format `npm run bench:all` collects (`##result {json}` on stdout). */
export interface BenchFigure {
  bench: string;
  name: string;
  unit: 'req/s' | 'records/s' | 'events/s';
  rate: number;
  p50?: number;
  p99?: number;
  /** Time spent in the service (Server-Timing), where measured. */
  serviceP50?: number;
  serviceP99?: number;
  /** CPU milliseconds per request by process, where measured (bench:readpath). */
  cpuMsPerRequest?: Record<string, number>;
}

export const FIGURE_PREFIX = '##result ';

export function reportFigure(f: BenchFigure): void {
  console.log(`${FIGURE_PREFIX}${JSON.stringify(f)}`);
}

/** A column of a markdown table: figures are right-aligned, text (`text: true`) left-aligned. */
export interface TableColumn {
  name: string;
  text?: boolean;
}

/**
 * A markdown table, as the benches print their figures (docs/benchmarks.md quotes them as printed). A column given
 * by its name alone is text when it is the first (what the row is) and a figure otherwise.
 */
export function markdownTable(
  columns: readonly (string | TableColumn)[],
  rows: readonly (readonly (string | number)[])[],
): string {
  const cols = columns.map((c, i) => (typeof c === 'string' ? { name: c, text: i === 0 } : c));
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  const rule = `|${cols.map((c) => (c.text ? '---' : '---:')).join('|')}|`;
  return [line(cols.map((c) => c.name)), rule, ...rows.map(line)].join('\n');
}

/** The request-rate figure of a load result. */
export const loadFigure = (bench: string, r: LoadResult): BenchFigure => ({
  bench,
  name: r.name,
  unit: 'req/s',
  rate: r.rps,
  p50: r.p50,
  p99: r.p99,
  serviceP50: r.service?.p50,
  serviceP99: r.service?.p99,
});

/** pgbench with a custom script on the prepared protocol: the database's own rate for a query, and its latencies. */
export function pgbench(
  dbUrl: string,
  name: string,
  sql: string,
  o: { connections: number; duration: number; threads?: number },
): LoadResult {
  const dir = mkdtempSync(join(tmpdir(), 'pgbench-'));
  const file = join(dir, 'q.sql');
  writeFileSync(file, sql);
  const u = new URL(dbUrl);
  const args = ['-n', '-M', 'prepared', '-f', file, '-c', String(o.connections), '-j', String(o.threads ?? 2)];
  args.push('-T', String(o.duration), '-h', u.hostname, '-p', u.port || '5432');
  args.push(
    '-U',
    decodeURIComponent(u.username || 'postgres'),
    u.pathname.slice(1),
    '--log',
    '--log-prefix',
    join(dir, 'log'),
  );
  const out = execFileSync('pgbench', args, {
    encoding: 'utf8',
    env: { ...process.env, PGPASSWORD: decodeURIComponent(u.password) },
  });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0);
  const latencies = execFileSync('sh', ['-c', `cat ${join(dir, 'log')}* | awk '{print $3}' | sort -n`], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  })
    .trim()
    .split('\n')
    .map(Number);
  rmSync(dir, { recursive: true, force: true });
  const pct = (p: number) => percentile(latencies, p) / 1000;
  return { name, rps: tps, p50: pct(50), p99: pct(99), errors: 0 };
}

/** The pids of the Redis servers at these URLs (INFO server of each). */
export async function redisServerPids(urls: readonly string[]): Promise<number[]> {
  return Promise.all(
    urls.map(async (u) => {
      const r = createRedis(u, 'worker');
      r.on('error', () => {});
      try {
        return Number(/process_id:(\d+)/.exec(await r.info('server'))?.[1]);
      } finally {
        r.disconnect();
      }
    }),
  );
}

/** Every process whose command name is `name` (e.g. every PostgreSQL backend): their pids. */
export function pidsNamed(name: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => processName(pid) === name);
}

/**
 * CPU used by groups of processes between start() and stop(): each group is a function giving its pids now (a
 * group whose processes come and go, like PostgreSQL backends, is counted from the pids alive at both ends).
 */
export function cpuMeter(groups: Record<string, () => number[]>) {
  let before = new Map<number, number>();
  const read = () => {
    const m = new Map<number, number>();
    for (const pids of Object.values(groups)) for (const pid of pids()) m.set(pid, processCpuSeconds(pid) ?? 0);
    return m;
  };
  return {
    start(): void {
      before = read();
    },
    /** CPU seconds per group since start(). */
    stop(): Record<string, number> {
      const result: Record<string, number> = {};
      for (const [group, pids] of Object.entries(groups)) {
        result[group] = pids().reduce(
          (sum, pid) => sum + Math.max(0, (processCpuSeconds(pid) ?? 0) - (before.get(pid) ?? 0)),
          0,
        );
      }
      return result;
    },
  };
}
