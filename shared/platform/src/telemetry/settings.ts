// What the standard OpenTelemetry variables ask for. Nothing is exported unless they say so: no endpoint and no
// OTEL_TRACES_EXPORTER means no tracing at all (not even spans kept in memory), OTEL_SDK_DISABLED=true turns
// everything off. The Prometheus scrape endpoint is passive and always there.
export interface TelemetrySettings {
  serviceName: string;
  tracing: boolean;
  otlpMetrics: boolean;
  /** How often metrics are pushed over OTLP (OTEL_METRIC_EXPORT_INTERVAL, ms; the specification's default 60 s). */
  metricExportIntervalMs: number;
  disabled: boolean;
}

const set = (v: string | undefined) => v !== undefined && v.trim() !== '';
const lists = (v: string | undefined, name: string) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .includes(name);

export function telemetrySettings(
  env: NodeJS.ProcessEnv = process.env,
  fallbackName = 'property-api',
): TelemetrySettings {
  const disabled = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
  const endpoint = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const tracesExporter = env.OTEL_TRACES_EXPORTER;
  const metricsExporter = env.OTEL_METRICS_EXPORTER;
  const tracing =
    !disabled &&
    !lists(tracesExporter, 'none') &&
    (set(tracesExporter) || endpoint || set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT));
  const otlpMetrics =
    !disabled &&
    !lists(metricsExporter, 'none') &&
    (lists(metricsExporter, 'otlp') ||
      ((endpoint || set(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT)) && !set(metricsExporter)));
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL?.trim() || Number.NaN);
  return {
    serviceName: env.OTEL_SERVICE_NAME?.trim() || fallbackName,
    tracing: Boolean(tracing),
    otlpMetrics: Boolean(otlpMetrics),
    metricExportIntervalMs: Number.isInteger(interval) && interval > 0 ? interval : 60_000,
    disabled,
  };
}

/** The node arguments that start OpenTelemetry before a TypeScript entry point (paths from the repository root). */
export const TELEMETRY_NODE_ARGS = ['--import', 'tsx', '--import', './shared/platform/src/telemetry/register.ts'];

/**
 * The instrumentations to run: pg and ioredis by default (request server spans are made by the app itself);
 * OTEL_NODE_ENABLED_INSTRUMENTATIONS (as in auto-instrumentations-node, e.g. "pg,ioredis,http") chooses.
 */
export function enabledInstrumentations(env: NodeJS.ProcessEnv = process.env): string[] {
  return (
    env.OTEL_NODE_ENABLED_INSTRUMENTATIONS?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? ['pg', 'ioredis']
  );
}

const PATCHED_MODULES: Record<string, string[]> = {
  http: ['http', 'https', 'node:http', 'node:https'],
  express: ['express', 'router'],
  pg: ['pg', 'pg-pool'],
  ioredis: ['ioredis'],
};

/** What the ESM loader hook intercepts so the enabled instrumentations can patch it; everything else loads untouched. */
export function instrumentedModules(env: NodeJS.ProcessEnv = process.env): string[] {
  return enabledInstrumentations(env).flatMap((name) => PATCHED_MODULES[name] ?? []);
}
