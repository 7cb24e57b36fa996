// npm run bench:webhooks [-- --subscribers 1000 --records 5 --receivers 20]
// Webhook delivery (issue 38): `subscribers` endpoints (40 accounts' worth) on loopback receivers, every one
// subscribed to every change; a re-import that changes the owner of `records` records, so records x subscribers
// deliveries. The worker runs as it does under npm start (services/webhooks/src/worker.ts, its own process, default
// settings), this process only receives. Figures:
// - delivery latency p50/p99: from the event's commit (its changedAt) to the receiver reading the request;
// - deliveries/s: every delivery over the time from the import's end to the last arrival;
// - the worker's CPU milliseconds per delivery (its process, /proc): a figure a busy machine moves less than rates;
// - the baseline, in the same run: the same number of signed POSTs to the same receivers sent directly (sign and
//   send with the same sender and concurrency, in a process of its own), with no feed, outbox, queue or log: the
//   ratio is what the durability costs.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { useLocalStack } from '@pra/platform/local-stack';
import { markdownTable, processCpuSeconds, quantile, reportFigure } from '@pra/platform/bench';
import { createWebhook } from '@pra/webhooks/registry';
import { CountyFile } from '@pra/ingest/testing/county-file';
import { benchDatabase, startBenchWorker, WORKER_CONCURRENCY as CONCURRENCY } from './bench-worker.js';

useLocalStack('bench:webhooks');

const { values: args } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    records: { type: 'string', default: '5' },
    receivers: { type: 'string', default: '20' },
  },
});
const subscribers = Number(args.subscribers);
const records = Number(args.records);
const receiverCount = Number(args.receivers);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Receivers on loopback: each request's arrival time, by webhook-id and path. */
const arrivals: { id: string; at: number }[] = [];
const servers: Server[] = [];
for (let i = 0; i < receiverCount; i++) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push({ id: String(req.headers['webhook-id']), at: Date.now() });
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(server);
}
const urlOf = (i: number) =>
  `http://127.0.0.1:${(servers[i % receiverCount]!.address() as AddressInfo).port}/hooks/${i}`;

const db = await benchDatabase('webhooks');
const pool = db.pool;
const prefix = `pra_bench_webhooks_${Date.now().toString(36)}:`;
let worker: ReturnType<typeof spawn> | undefined;
try {
  const file = new CountyFile(`whbench${Date.now().toString(36)}`);
  const owners = Array.from({ length: records }, (_, i) => `OWNER${i} FIRST`);
  await file.import(pool, owners);

  // 1,000 endpoints: 25 per account (the most an account may have).
  const perAccount = 25;
  for (let a = 0; a * perAccount < subscribers; a++) {
    const { rows } = await pool.query<{ id: number }>(
      `INSERT INTO billing.accounts (email, name, tier) VALUES ($1, 'bench', 'pro') RETURNING id`,
      [`bench-${a}@example.com`],
    );
    for (let j = 0; j < perAccount && a * perAccount + j < subscribers; j++)
      await createWebhook(pool, {
        accountId: rows[0]!.id,
        url: urlOf(a * perAccount + j),
        events: ['property.updated'],
      });
  }

  worker = await startBenchWorker(db.url, prefix);

  // The re-import: every record's owner changes, one event each, owed to every subscriber.
  const expected = records * subscribers;
  const cpuBefore = processCpuSeconds(worker.pid!) ?? 0;
  const importStarted = Date.now();
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
  while (arrivals.length < expected && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  if (arrivals.length < expected) throw new Error(`only ${arrivals.length} of ${expected} deliveries in 10 minutes`);
  const workerCpuMs = (((processCpuSeconds(worker.pid!) ?? 0) - cpuBefore) * 1000) / expected;
  const lastArrival = Math.max(...arrivals.map((a) => a.at));
  const latencies = arrivals.map((a) => a.at - committedAt.get(a.id)!).sort((x, y) => x - y);
  const pipelineRate = expected / ((lastArrival - importEnded) / 1000);
  worker.kill('SIGTERM');
  const { rows: dup } = await pool.query<{ n: number }>(
    `SELECT count(*)::int - count(DISTINCT (webhook_id, event_id))::int AS n FROM webhooks.deliveries WHERE outcome = 'delivered'`,
  );

  // The baseline: the same signed POSTs, sent directly.
  arrivals.length = 0;
  const urls = Array.from({ length: subscribers }, (_, i) => urlOf(i));
  const direct = await new Promise<{ seconds: number; cpuSeconds: number }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/webhooks/direct-sender.ts'], {
      cwd: root,
      env: {
        ...process.env,
        BENCH_URLS: JSON.stringify(urls),
        BENCH_EVENTS: String(records),
        BENCH_CONCURRENCY: String(CONCURRENCY),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`direct sender exited ${code}`)),
    );
  });
  if (arrivals.length < expected) throw new Error(`the baseline delivered ${arrivals.length} of ${expected}`);
  const directRate = expected / direct.seconds;

  const p = (q: number) => quantile(latencies, q);
  console.log(
    `\nbench:webhooks: ${subscribers.toLocaleString('en-US')} subscribers on ${receiverCount} loopback receivers, a re-import changing ${records} owners = ${expected.toLocaleString('en-US')} deliveries; ` +
      `the import took ${((importEnded - importStarted) / 1000).toFixed(1)} s; ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)} at the end\n`,
  );
  console.log(
    markdownTable(
      [
        'path',
        'deliveries/s',
        'latency p50 (ms)',
        'latency p99 (ms)',
        'sender CPU ms a delivery',
        'acknowledged twice',
      ],
      [
        [
          'feed -> outbox -> BullMQ -> signed POST -> log (worker process)',
          Math.round(pipelineRate),
          p(0.5),
          p(0.99),
          workerCpuMs.toFixed(2),
          dup[0]!.n,
        ],
        [
          'baseline: the same signed POSTs sent directly',
          Math.round(directRate),
          '',
          '',
          ((direct.cpuSeconds * 1000) / expected).toFixed(2),
          '',
        ],
      ],
    ),
  );
  console.log(
    `\nratio to the baseline: ${(pipelineRate / directRate).toFixed(2)} of its rate, ` +
      `${(workerCpuMs / ((direct.cpuSeconds * 1000) / expected)).toFixed(1)}x its CPU a delivery`,
  );
  reportFigure({
    bench: 'webhooks',
    name: 'deliveries',
    unit: 'events/s',
    rate: Math.round(pipelineRate),
    p50: p(0.5),
    p99: p(0.99),
  });
  reportFigure({ bench: 'webhooks', name: 'direct signed POSTs', unit: 'events/s', rate: Math.round(directRate) });
  file.remove();
} finally {
  worker?.kill('SIGKILL');
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await db.drop();
}
