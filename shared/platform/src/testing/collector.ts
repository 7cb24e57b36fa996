// A real OpenTelemetry Collector for tests and benchmarks: pra-otelcol, built from
// observability/collector/builder-config.yaml by observability/collector/build.sh (.ci/run calls it).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './redis-server.js';

/** The collector configs of the repository (observability/collector/*-config.yaml). */
export const COLLECTOR_CONFIGS = fileURLToPath(new URL('../../../../observability/collector/', import.meta.url));

/** The built collector (PRA_OTELCOL, or GOPATH/bin/pra-otelcol), or null when it has not been built. */
export function findCollector(): string | null {
  const gopath = process.env.GOPATH ?? join(homedir(), 'go');
  for (const c of [process.env.PRA_OTELCOL, join(gopath, 'bin', 'pra-otelcol')]) if (c && existsSync(c)) return c;
  return null;
}

export interface RunningCollector {
  /** Its OTLP/HTTP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT). */
  endpoint: string;
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
    if (res?.ok) return { endpoint, alive, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the collector did not answer on ${endpoint}:\n${output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
