// The `node --import` entry that starts OpenTelemetry before any application module loads:
//   node --import tsx --import ./shared/platform/src/telemetry/register.ts services/lookup/src/server.ts
// With tracing on, the ESM loader hook lets the enabled instrumentations patch their modules as they are imported.
import { register } from 'node:module';
import { instrumentedModules, telemetrySettings } from './settings.js';

if (telemetrySettings().tracing) {
  register('import-in-the-middle/hook.mjs', import.meta.url, { data: { include: instrumentedModules() } });
}
const { startTelemetry } = await import('./sdk.js');
const telemetry = startTelemetry();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // Flush what is buffered; the process's own handlers decide when it exits.
  process.on(signal, () => void telemetry.shutdown());
}
