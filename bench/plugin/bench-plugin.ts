// npm run bench:plugin [-- --duration 10 --concurrency 16]
// The Kong path of the plugin: the real kong-js-pluginserver, driven over its Unix socket as Kong drives it (the
// harness of the plugin-server tests), with real Redis and real account-billing keys in PostgreSQL. For each outcome
// (200 admitted, 401 unknown key, 429 rate-limited, 403 disabled key), `concurrency` access events in flight for
// `duration` seconds; prints the PDK calls a request made (each one a round trip between Kong and the pluginserver),
// requests/s, and the pluginserver process's CPU per request in microseconds (utime + stime from /proc/<pid>/stat).
// Kong's own side (nginx, the Lua bridge) is not measured: this harness plays it.
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '@pra/core/config';
import { createPool, ensureDatabase, withDatabase } from '@pra/platform';
import { markdownTable, processCpuSeconds } from '@pra/platform/bench';
import { billingFixture } from '@pra/account-billing/testing';
import { setAccountLimits, setKeyStatus } from '@pra/account-billing/domain';
import { migrateBilling } from '@pra/account-billing/migrate';
import { accessEvent, startPluginServer, type Outcome } from '../../gateway/plugin/test/pluginserver-harness.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
  },
});
const duration = Number(values.duration);
const concurrency = Number(values.concurrency);
const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const dbUrl = withDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, 'property_records_bench_plugin');
const prefix = `pra_bench_plugin_${Date.now().toString(36)}:`;
const log = (l: string) => console.error(`[bench:plugin] ${l}`);

interface Scenario {
  outcome: string;
  status: number;
  target: string;
  headers: Record<string, string>;
}

interface Row {
  outcome: string;
  requests: number;
  rps: number;
  cpuUsPerRequest: number;
  pdkCalls: number;
  calls: string;
}

/** The PDK calls of one event, as "name xN" in order of first use. */
function describeCalls(calls: string[]): string {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${name.replace(/^kong\./, '')}${n > 1 ? ` x${n}` : ''}`).join(', ');
}

async function main() {
  await ensureDatabase(dbUrl);
  const pool = createPool(dbUrl, 2, 'bench');
  await migrateBilling(pool);
  const billing = await billingFixture(pool, redisUrl, prefix);
  const admitted = await billing.fundedAccount(1_000, { tier: 'enterprise' });
  await setAccountLimits(billing.deps, admitted.accountId, { ratePerMinute: 100_000_000, dailyQuota: null });
  const limited = await billing.fundedAccount(1_000, { tier: 'free' });
  await setAccountLimits(billing.deps, limited.accountId, { ratePerMinute: 1, dailyQuota: null });
  const disabled = await billing.fundedAccount(1_000, { tier: 'pro' });
  await setKeyStatus(billing.deps, disabled.keyId, 'disabled');
  const target = '/api/v1/property/address?zip=95838&address=3526%20HIGH%20ST';
  const bearer = (key: string) => ({
    authorization: `Bearer ${key}`,
    host: 'api.example.com',
    'user-agent': 'bench-plugin/1',
    accept: 'application/json',
  });
  const scenarios: Scenario[] = [
    { outcome: '200 admitted', status: 200, target, headers: bearer(admitted.key) },
    { outcome: '401 unknown key', status: 401, target, headers: bearer(`pra_live_${randomBytes(16).toString('hex')}`) },
    { outcome: '429 rate-limited', status: 429, target, headers: bearer(limited.key) },
    { outcome: '403 disabled key', status: 403, target, headers: bearer(disabled.key) },
  ];

  const server = await startPluginServer({
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    GATEWAY_HMAC_KEY: `hmac-${randomBytes(16).toString('hex')}`,
  });
  const rows: Row[] = [];
  try {
    const { Id: instanceId } = await server.rpc('plugin.StartInstance', { Name: 'pra-gateway', Config: '{}' });
    const statusOf = (o: Outcome) => o.exit?.status ?? 200;
    for (const s of scenarios) {
      const play = () => accessEvent(server, instanceId, s.target, s.headers);
      // Warm up (and use up the rate-limited account's one call), then check the outcome is the one measured.
      for (let i = 0; i < 200; i++) await play();
      const sample = await play();
      if (statusOf(sample) !== s.status)
        throw new Error(`${s.outcome}: the plugin answered ${statusOf(sample)} (${JSON.stringify(sample.exit)})`);
      let requests = 0;
      let wrong = 0;
      const cpuBefore = processCpuSeconds(server.pid) ?? 0;
      const started = performance.now();
      const until = started + duration * 1000;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < until) {
            const o = await play();
            requests++;
            if (statusOf(o) !== s.status || o.calls.length !== sample.calls.length) wrong++;
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const cpu = (processCpuSeconds(server.pid) ?? 0) - cpuBefore;
      if (wrong) throw new Error(`${s.outcome}: ${wrong} of ${requests} requests had another outcome or call count`);
      rows.push({
        outcome: s.outcome,
        requests,
        rps: requests / seconds,
        cpuUsPerRequest: (cpu * 1e6) / requests,
        pdkCalls: sample.calls.length,
        calls: describeCalls(sample.calls),
      });
      log(`${s.outcome}: ${requests} requests in ${seconds.toFixed(1)} s`);
    }
  } finally {
    await server.close();
    await billing.close();
    await pool.end();
  }

  console.log(
    `\nkong-js-pluginserver, ${duration} s per outcome, ${concurrency} events in flight, ${cpus().length} vCPU, Node ${process.version}`,
  );
  console.log(
    markdownTable(
      ['outcome', 'PDK calls/request', 'requests/s', 'pluginserver CPU µs/request', { name: 'PDK calls', text: true }],
      rows.map((r) => [r.outcome, r.pdkCalls, Math.round(r.rps), Math.round(r.cpuUsPerRequest), r.calls]),
    ),
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
