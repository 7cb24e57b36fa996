// The `node --import` entry that starts OpenTelemetry before any application module loads:
//   node --import tsx --import ./shared/platform/src/telemetry/register.ts services/lookup/src/server.ts
// With tracing on, the ESM loader hook lets the enabled instrumentations patch their modules as they are imported.
// In a worker thread it does nothing: a worker inherits the process's `--import`s (the ingest CLI's import and
// generate workers, from the image's entry point), does no I/O to trace, and its own SDK would cost ~0.25 s of CPU and
// ~40 MB, and push the process's metrics again as another series.
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import { instrumentedModules, telemetrySettings } from './settings.js';

if (isMainThread) {
  if (telemetrySettings().tracing) {
    register('import-in-the-middle/hook.mjs', import.meta.url, { data: { include: instrumentedModules() } });
  }
  const { startTelemetry } = await import('./sdk.js');
  const telemetry = startTelemetry();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // Flush what is buffered; the process's own handlers decide when it exits.
    process.on(signal, () => void telemetry.shutdown());
  }
}
