// A real OpenTelemetry Collector for tests and benchmarks: pra-otelcol, built from
// observability/collector/builder-config.yaml by observability/collector/build.sh (.ci/run calls it).
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findGoBinary } from './go-binaries.js';
import { freePort } from './free-port.js';

/** The collector configs of the repository (observability/collector/*-config.yaml). */
export const COLLECTOR_CONFIGS = fileURLToPath(new URL('../../../../observability/collector/', import.meta.url));

/** The built collector (PRA_OTELCOL, or GOPATH/bin/pra-otelcol), or null when it has not been built (build.sh removes
 * an out-of-date binary before it rebuilds, so a failed rebuild leaves none rather than a stale one). */
export const findCollector = (): string | null => findGoBinary('pra-otelcol', 'PRA_OTELCOL');

export interface RunningCollector {
  /** Its OTLP/HTTP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT). */
  endpoint: string;
  pid: number;
  /** Throws, with what the collector printed, once it has exited. */
  alive(): void;
  stop(): Promise<void>;
}

/**
 * Starts `bin` with a config that takes its OTLP/HTTP receiver's address from PRA_COLLECTOR_OTLP_HTTP (a free port
 * here) and anything else from `env`; resolves once the receiver answers an empty export.
 */
export async function startCollector(
  bin: string,
  config: string,
  env: Record<string, string> = {},
): Promise<RunningCollector> {
  const port = await freePort();
  const output: string[] = [];
  const child: ChildProcess = spawn(bin, [`--config=${config}`], {
    env: { ...process.env, ...env, PRA_COLLECTOR_OTLP_HTTP: `127.0.0.1:${port}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  const endpoint = `http://127.0.0.1:${port}`;
  const alive = () => {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the collector exited (${child.exitCode ?? child.signalCode}):\n${output.join('')}`);
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    alive();
    const res = await fetch(`${endpoint}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).catch(() => undefined);
    if (res?.ok) return { endpoint, pid: child.pid!, alive, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the collector did not answer on ${endpoint}:\n${output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
