// npm run bench:webhooks-neighbour [-- --records 100 --healthy 20 --dead 5]
// One receiver that never answers beside healthy ones (services/webhooks/src/delivery/endpoint-slots.ts): `dead`
// endpoints whose receiver reads each request and never answers, and `healthy` endpoints on loopback receivers
// that answer at once, all subscribed to every change; a re-import changes `records` owners, so each endpoint is
// owed `records` events. The worker runs as npm start runs it (its own process, WEBHOOK_CONCURRENCY 50, the 5 s
// timeout), twice in the same run, each on a fresh database:
//   shares off   WEBHOOK_ENDPOINT_CONCURRENCY = WEBHOOK_FAILING_ENDPOINT_CONCURRENCY = 50 (any endpoint may take
//                every slot: how the worker was before)
//   shares on    the defaults (an endpoint a fifth of the slots, one while it fails)
// Figures: the healthy endpoints' deliveries/s and latency p50/p99 (the event's commit to the receiver reading it),
// the most requests the dead receiver had open at once, and the ratio of the healthy rate with shares on to off.
// Then what the shares cost with no neighbour: one healthy endpoint alone owed as many events, shares off and on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { useLocalStack } from '@pra/platform/local-stack';
import { markdownTable, quantile, reportFigure } from '@pra/platform/bench';
import { createWebhook } from '@pra/webhooks/registry';
import { CountyFile } from '@pra/ingest/testing/county-file';
import { benchDatabase, startBenchWorker, WORKER_CONCURRENCY as CONCURRENCY } from './bench-worker.js';

useLocalStack('bench:webhooks-neighbour');

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100' },
    healthy: { type: 'string', default: '20' },
    dead: { type: 'string', default: '5' },
  },
});
const records = Number(args.records);
const healthyCount = Number(args.healthy);
const deadCount = Number(args.dead);

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const arrivals: { id: string; at: number }[] = [];
const healthyServer = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    arrivals.push({ id: String(req.headers['webhook-id']), at: Date.now() });
    res.end();
  });
});
healthyServer.keepAliveTimeout = 60_000;
const dead = { open: 0, maxOpen: 0, total: 0 };
const deadServer = createServer((req) => {
  dead.total++;
  dead.open++;
  dead.maxOpen = Math.max(dead.maxOpen, dead.open);
  req.resume();
  req.socket.once('close', () => dead.open--);
});
const healthyUrl = await listen(healthyServer);
const deadUrl = await listen(deadServer);

interface Run {
  label: string;
  rate: number;
  p50: number;
  p99: number;
  maxOpen: number;
  seconds: number;
}

interface Scene {
  dead: number;
  healthy: number;
  records: number;
}

async function run(label: string, env: Record<string, string>, scene: Scene): Promise<Run> {
  const { dead: deadCount, healthy: healthyCount, records } = scene;
  const tag = `${label.replace(/\W+/g, '')}${Date.now().toString(36)}`;
  const db = await benchDatabase(`neighbour_${label.replace(/\W+/g, '')}`);
  const pool = db.pool;
  const file = new CountyFile(`whnb${tag}`);
  let worker: Awaited<ReturnType<typeof startBenchWorker>> | undefined;
  arrivals.length = 0;
  Object.assign(dead, { open: 0, maxOpen: 0, total: 0 });
  try {
    const owners = Array.from({ length: records }, (_, i) => `OWNER${i} FIRST`);
    await file.import(pool, owners);
    const { rows } = await pool.query<{ id: number }>(
      `INSERT INTO billing.accounts (email, name, tier) VALUES ('neighbour@example.com', 'bench', 'pro') RETURNING id`,
    );
    // The dead endpoints first: their events are queued ahead of the healthy ones'.
    for (let i = 0; i < deadCount; i++)
      await createWebhook(pool, { accountId: rows[0]!.id, url: `${deadUrl}/dead/${i}`, events: ['property.updated'] });
    for (let i = 0; i < healthyCount; i++)
      await createWebhook(pool, { accountId: rows[0]!.id, url: `${healthyUrl}/ok/${i}`, events: ['property.updated'] });
    worker = await startBenchWorker(db.url, `pra_bench_neighbour_${tag}:`, env);
    const expected = records * healthyCount;
    await file.import(
      pool,
      owners.map((o) => o.replace('FIRST', 'SECOND')),
    );
    const importEnded = Date.now();
    const { rows: events } = await pool.query<{ position: string; at: Date }>(
      `SELECT position::text, changed_at AS at FROM records.change_events ORDER BY position`,
    );
    const committedAt = new Map(events.map((e) => [`evt_${e.position}`, e.at.getTime()]));
    const until = Date.now() + 600_000;
    while (arrivals.length < expected && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    if (arrivals.length < expected) throw new Error(`${label}: ${arrivals.length} of ${expected} in 10 minutes`);
    const last = Math.max(...arrivals.map((a) => a.at));
    const latencies = arrivals.map((a) => a.at - committedAt.get(a.id)!).sort((x, y) => x - y);
    const seconds = (last - importEnded) / 1000;
    return {
      label,
      rate: expected / seconds,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      maxOpen: dead.maxOpen,
      seconds,
    };
  } finally {
    worker?.kill('SIGKILL');
    file.remove();
    await db.drop();
  }
}

const SHARES_OFF = {
  WEBHOOK_ENDPOINT_CONCURRENCY: String(CONCURRENCY),
  WEBHOOK_FAILING_ENDPOINT_CONCURRENCY: String(CONCURRENCY),
};
const columns = [
  'worker',
  'healthy deliveries/s',
  'all healthy delivered after (s)',
  'latency p50 (ms)',
  'latency p99 (ms)',
  'dead receiver: most requests open',
];
const row = (r: Run) => [r.label, Math.round(r.rate), r.seconds.toFixed(1), r.p50, r.p99, r.maxOpen];

try {
  // The neighbours: dead receivers beside healthy ones.
  const scene = { dead: deadCount, healthy: healthyCount, records };
  const off = await run('shares off', SHARES_OFF, scene);
  const on = await run('shares on (defaults)', {}, scene);
  // What the shares cost when there is no neighbour: one fast endpoint alone with a backlog (it borrows idle slots).
  const alone = { dead: 0, healthy: 1, records: records * healthyCount };
  const aloneOff = await run('alone, shares off', SHARES_OFF, alone);
  const aloneOn = await run('alone, shares on (defaults)', {}, alone);
  const load = loadavg()[0]!.toFixed(1);
  console.log(
    `\nbench:webhooks-neighbour: ${deadCount} receiver(s) that never answer and ${healthyCount} healthy ones, all owed ${records} events (${(records * healthyCount).toLocaleString('en-US')} healthy deliveries); worker concurrency ${CONCURRENCY}, 5 s timeout; ${cpus().length} cores, load ${load} at the end\n`,
  );
  console.log(markdownTable(columns, [off, on].map(row)));
  console.log(
    `\nratio: the healthy endpoints' rate with shares on is ${(on.rate / off.rate).toFixed(1)}x the rate with them off`,
  );
  console.log(
    `\none healthy endpoint alone, owed ${alone.records.toLocaleString('en-US')} events (what the shares cost without a neighbour)\n`,
  );
  console.log(markdownTable(columns, [aloneOff, aloneOn].map(row)));
  console.log(`\nratio: alone, shares on give ${(aloneOn.rate / aloneOff.rate).toFixed(2)}x the rate with them off`);
  for (const [name, r] of [
    ['healthy deliveries beside dead receivers', on],
    ['the same, shares off', off],
    ['one endpoint alone', aloneOn],
    ['one endpoint alone, shares off', aloneOff],
  ] as const)
    reportFigure({
      bench: 'webhooks-neighbour',
      name,
      unit: 'events/s',
      rate: Math.round(r.rate),
      p50: r.p50,
      p99: r.p99,
    });
} finally {
  healthyServer.closeAllConnections();
  deadServer.closeAllConnections();
  await Promise.all([healthyServer, deadServer].map((s) => new Promise((r) => s.close(r))));
}
