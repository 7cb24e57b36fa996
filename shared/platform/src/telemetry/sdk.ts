// Starts OpenTelemetry for one process: tracing (http, express, pg, ioredis; BullMQ through bullmq-otel where the
// queues are made) when the environment asks for it, and metrics always, read by the Prometheus scrape endpoint
// and, when an OTLP endpoint is set, pushed there too.
import { metrics, type MeterProvider as ApiMeterProvider, createNoopMeter } from '@opentelemetry/api';

const NOOP_METER_PROVIDER: ApiMeterProvider = { getMeter: () => createNoopMeter() };
import { NodeSDK } from '@opentelemetry/sdk-node';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { MeterProvider, PeriodicExportingMetricReader, type MetricReader } from '@opentelemetry/sdk-metrics';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { enabledInstrumentations, telemetrySettings, type TelemetrySettings } from './settings.js';
import { samplerFromEnv } from './sampling.js';

export interface Telemetry {
  settings: TelemetrySettings;
  /** Answers a Prometheus scrape. */
  scrape(req: IncomingMessage, res: ServerResponse): void;
  shutdown(): Promise<void>;
}

let current: Telemetry | undefined;

/** The telemetry this process started, if any (the internal server serves its scrape endpoint). */
export const activeTelemetry = (): Telemetry | undefined => current;

/** The enabled instrumentations (settings.ts: enabledInstrumentations). */
export function instrumentations(env: NodeJS.ProcessEnv = process.env) {
  const enabled = enabledInstrumentations(env);
  const all = {
    http: () =>
      new HttpInstrumentation({
        // Probes and scrapes are not requests anyone wants to see in a trace.
        ignoreIncomingRequestHook: (req) => /^\/(metrics|livez|readyz)\b/.test(req.url ?? ''),
      }),
    // Middleware spans (query parsing, request id) and pool checkouts say little and cost a span each per request.
    express: () => new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    pg: () =>
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false, ignoreConnectSpans: true }),
    ioredis: () => new IORedisInstrumentation({ requireParentSpan: true }),
  };
  return Object.entries(all)
    .filter(([name]) => enabled.includes(name))
    .map(([, make]) => make());
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  serviceName?: string;
  /** Span processors to use instead of the ones the environment names (tests pass an in-memory exporter). */
  spanProcessors?: SpanProcessor[];
}

export function startTelemetry(o: StartOptions = {}): Telemetry {
  if (current) return current;
  const settings = telemetrySettings(o.env, o.serviceName);
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const readers: MetricReader[] = [prometheus];
  if (settings.otlpMetrics)
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(),
        // The SDK's reader does not read OTEL_METRIC_EXPORT_INTERVAL itself.
        exportIntervalMillis: settings.metricExportIntervalMs,
        exportTimeoutMillis: Math.min(30_000, settings.metricExportIntervalMs),
      }),
    );
  const tracing = settings.tracing || o.spanProcessors !== undefined;
  let sdk: NodeSDK | undefined;
  let meterProvider: MeterProvider | undefined;
  if (tracing) {
    const insts = instrumentations(o.env);
    sdk = new NodeSDK({
      serviceName: settings.serviceName,
      // The standard sampler variables, except at the edge: a client's sampled flag never raises the rate.
      sampler: samplerFromEnv(o.env ?? process.env),
      instrumentations: insts,
      metricReaders: readers,
      logRecordProcessors: [],
      ...(o.spanProcessors ? { spanProcessors: o.spanProcessors } : {}),
    });
    sdk.start();
    // The pg instrumentation's own histograms cost a record with many attributes on every query; the request
    // metrics and spans already say what they would.
    for (const i of insts) i.setMeterProvider(NOOP_METER_PROVIDER);
  } else if (!settings.disabled) {
    meterProvider = new MeterProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
      readers,
    });
    metrics.setGlobalMeterProvider(meterProvider);
  }
  // Resident memory, for soak tests and alerts on leaks (process.memory.usage, as in the semantic conventions).
  if (!settings.disabled) {
    metrics
      .getMeter('property-api')
      .createObservableGauge('process.memory.usage', { description: 'Resident set size of the process', unit: 'By' })
      .addCallback((r) => r.observe(process.memoryUsage.rss()));
    // CPU time, user and system (process.cpu.time, as in the semantic conventions): per-service CPU on dashboards.
    metrics
      .getMeter('property-api')
      .createObservableCounter('process.cpu.time', { description: 'CPU time the process used', unit: 's' })
      .addCallback((r) => {
        const { user, system } = process.cpuUsage();
        r.observe(user / 1e6, { 'cpu.mode': 'user' });
        r.observe(system / 1e6, { 'cpu.mode': 'system' });
      });
  }
  current = {
    settings: { ...settings, tracing },
    scrape: (req, res) => prometheus.getMetricsRequestHandler(req, res),
    shutdown: async () => {
      await Promise.allSettled([sdk?.shutdown(), meterProvider?.shutdown()]);
    },
  };
  return current;
}
