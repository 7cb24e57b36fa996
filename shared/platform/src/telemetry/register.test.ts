// The `--import` entry that starts OpenTelemetry: in the process's main thread, not in its worker threads, which
// inherit the process's `--import`s (the ingest CLI's import and generate workers, under the image's entry point).
// The bundled entry, whose worker threads must not load the SDK's modules either: test/build.test.ts.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { type ThreadTelemetry, telemetryThreadsProbe } from './testing.js';

const register = fileURLToPath(new URL('./register.ts', import.meta.url));

it('starts the SDK in the main thread and not in a worker thread that inherits the --import', () => {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--import', register, '--input-type=module', '-e', telemetryThreadsProbe()],
    // A probe that hangs fails the test (vitest's own timeout cannot stop a synchronous call).
    {
      encoding: 'utf8',
      timeout: 45_000,
      env: { ...process.env, OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' },
    },
  );
  const { main, worker } = JSON.parse(out.trim().split('\n').pop()!) as Record<string, ThreadTelemetry>;
  expect(main!.registered).toContain('metrics');
  expect(worker!.registered).toEqual([]);
  // Under tsx the SDK is imported only where it starts: the worker loads none of its modules.
  expect(main!.modules).toBeGreaterThan(100);
  expect(worker!.modules).toBe(0);
}, 60_000);
