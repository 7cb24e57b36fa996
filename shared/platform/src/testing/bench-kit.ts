// What every benchmark here needs: services started as child processes on port 0, and autocannon replaying paths.
import { spawn, type ChildProcess } from 'node:child_process';
import type { IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { TELEMETRY_NODE_ARGS } from '../telemetry/settings.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url)); // the repository root
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill();
});

export interface Started {
  port: number;
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
}

export const FIGURE_PREFIX = '##result ';

export function reportFigure(f: BenchFigure): void {
  console.log(`${FIGURE_PREFIX}${JSON.stringify(f)}`);
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
