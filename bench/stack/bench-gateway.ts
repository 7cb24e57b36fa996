// npm run bench:gateway [-- --duration 20 --connections 32 --records 100000]
// The same lookup mix (3 address lookups by full address to 1 owner lookup) direct on the lookup service and
// through the local gateway, alternated twice in one run. Direct calls carry what the gateway would add (a fresh
// request id, signed identity headers), made by the client, so the service does the same work either way; the
// difference is the gateway: auth, rate limit and quota (one Redis call), signing, the proxy hop.
import { randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { DEFAULT_REDIS_URL } from '@pra/core/config';
import { IDENTITY_HEADERS, SIGNATURE_HEADER, signIdentity } from '@pra/core/auth';
import { fileURLToPath } from 'node:url';
import { loadFigure, markdownTable, replay, reportFigure, type LoadResult } from '@pra/platform/bench';
import { freePort } from '@pra/platform/testing';
import { Supervisor } from '../../services/stack/src/supervisor.js';
import { startSystem } from '../../services/stack/src/system.js';
import { billingFixture } from '@pra/account-billing/testing';
import { benchDatabaseUrl, prepareBenchDatabase } from '../lookup/bench-database.js';
import { setAccountLimits } from '@pra/account-billing/domain';
import { UsagePipeline } from '@pra/account-billing/pipeline';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '32' },
    records: { type: 'string', default: '100000' },
  },
});
const records = Number(values.records);
const dbUrl = benchDatabaseUrl(records);
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const prefix = `pra_bench_gw_${Date.now().toString(36)}:`;
const HMAC = randomUUID() + randomUUID();
const root = fileURLToPath(new URL('../../', import.meta.url));

async function main() {
  const { pool } = await prepareBenchDatabase(records, 4);
  const billing = await billingFixture(pool, redisUrl, prefix);
  const { key, accountId, keyId } = await billing.fundedAccount(1_000_000_000, { tier: 'enterprise' });
  // The benchmark account's contract allows far more than the benchmark sends: no request is a 429.
  await setAccountLimits(billing.deps, accountId, { ratePerMinute: 100_000_000, dailyQuota: null });
  const pipeline = new UsagePipeline({ pool, redisUrl, layout: billing.layout, log: () => {} });
  await pipeline.start();
  const { rows } = await pool.query<{
    line_key: string;
    zip: string;
    unit_key: string;
    last: string | null;
    state: string;
  }>(
    `SELECT p.line_key, p.zip, p.unit_key, o.last_name_key AS last, p.state FROM records.properties p TABLESAMPLE BERNOULLI (1) REPEATABLE (3)
       LEFT JOIN records.owners o ON o.property_id = p.id AND o.seq = 1 WHERE p.source LIKE 'synthetic:%' LIMIT 2000`,
  );
  const paths = rows.flatMap((r, i) => {
    const address = `/api/v1/property/address?address=${encodeURIComponent(r.line_key + (r.unit_key ? ` #${r.unit_key}` : ''))}&zip=${r.zip}`;
    return i % 3 === 0 && r.last
      ? [address, `/api/v1/property/owner?lastName=${encodeURIComponent(r.last)}&state=${r.state}&pagesize=5`]
      : [address];
  });
  // The lookup and the gateway as npm start runs them (no telemetry: the bare cost of the hop is measured).
  const supervisor = new Supervisor({ cwd: root, nodeArgs: ['--import', 'tsx'], log: (l) => console.error(l) });
  const ports = {
    gateway: await freePort(),
    lookup: await freePort(),
    autocomplete: 0,
    billing: 0,
    plans: 0,
    admin: 0,
  };
  await startSystem({
    placement: 'processes',
    supervisor,
    only: ['lookup', 'gateway'],
    ports,
    firstInternalPort: 0,
    databaseUrl: dbUrl,
    redisUrl,
    redisPrefix: prefix,
    gatewayKey: HMAC,
    adminToken: '',
    publicBaseUrl: '/api/v1',
    env: () => ({ LOG_LEVEL: 'warn' }),
  });
  const lookup = { port: ports.lookup };
  const gateway = { port: ports.gateway };
  const load = { connections: Number(values.connections), duration: Number(values.duration) };
  const identity = { accountId, tier: 'enterprise' as const, keyId };
  const direct = async (name: string, duration = load.duration): Promise<LoadResult> => {
    let i = 0;
    const r = await autocannon({
      url: `http://127.0.0.1:${lookup.port}`,
      connections: load.connections,
      duration,
      requests: [
        {
          setupRequest: (req: any) => {
            const id = randomUUID();
            const path = paths[i++ % paths.length]!;
            return {
              ...req,
              path,
              headers: {
                ...req.headers,
                'x-request-id': id,
                [IDENTITY_HEADERS.account]: String(identity.accountId),
                [IDENTITY_HEADERS.tier]: identity.tier,
                [IDENTITY_HEADERS.key]: String(identity.keyId),
                [SIGNATURE_HEADER]: signIdentity(identity, id, { method: 'GET', url: path }, HMAC),
              },
            };
          },
        },
      ],
    });
    return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors };
  };
  const results: LoadResult[] = [];
  await direct('warm-up', 2);
  for (let round = 0; round < 2; round++) {
    results.push(await direct('direct to lookup'));
    results.push(
      await replay('through the local gateway', `http://127.0.0.1:${gateway.port}`, paths, { ...load, key }),
    );
  }
  await supervisor.stop();
  await pipeline.stop();
  await billing.close();
  await pool.end();

  const mean = (name: string, f: (r: LoadResult) => number) => {
    const xs = results.filter((r) => r.name === name).map(f);
    return xs.reduce((s, x) => s + x, 0) / xs.length;
  };
  const d = 'direct to lookup';
  const g = 'through the local gateway';
  for (const r of results) reportFigure(loadFigure('gateway', r));
  console.log(
    `\n### bench:gateway, ${records.toLocaleString('en-US')} records, ${load.connections} connections, ${load.duration} s each, alternated twice`,
  );
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}\n`,
  );
  console.log(
    markdownTable(
      ['lookup mix', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx'],
      [
        ...results.map((r) => [
          r.name,
          Math.round(r.rps).toLocaleString('en-US'),
          r.p50.toFixed(1),
          r.p99.toFixed(1),
          r.errors,
        ]),
        [
          'through gateway vs direct (means)',
          `${((mean(g, (r) => r.rps) / mean(d, (r) => r.rps)) * 100).toFixed(0)}%`,
          `+${(mean(g, (r) => r.p50) - mean(d, (r) => r.p50)).toFixed(1)}`,
          `+${(mean(g, (r) => r.p99) - mean(d, (r) => r.p99)).toFixed(1)}`,
          '',
        ],
      ],
    ),
  );
  process.exit(0);
}

main().catch((err) => {
  console.error(`bench failed: ${err.stack ?? err}`);
  process.exit(1);
});
