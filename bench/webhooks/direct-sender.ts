// bench:webhooks's baseline, in a process of its own as the worker is: BENCH_EVENTS signed POSTs to each of
// BENCH_URLS through the webhook sender (signing, address check, pinned connection, keep-alive), BENCH_CONCURRENCY at
// a time, with no feed, outbox, queue or log. Prints {"seconds": N, "cpuSeconds": N}.
import { newWebhookSecret, signedHeaders } from '@pra/webhooks/signing';
import { sendWebhook } from '@pra/webhooks/sender';

const urls = JSON.parse(process.env.BENCH_URLS ?? '[]') as string[];
const events = Number(process.env.BENCH_EVENTS ?? '1');
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? '50');
const secret = newWebhookSecret();
const body = JSON.stringify({ type: 'property.updated', timestamp: new Date().toISOString(), data: { bench: true } });
const work: { url: string; id: string }[] = [];
for (let e = 0; e < events; e++) for (const url of urls) work.push({ url, id: `evt_direct_${e}` });

const started = performance.now();
const cpu = process.cpuUsage();
let next = 0;
let failed = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < work.length) {
      const w = work[next++]!;
      const r = await sendWebhook(
        { url: w.url, headers: signedHeaders(secret, w.id, body), body },
        { policy: { allowInsecureLocal: true }, timeoutMs: 5_000, responseCapBytes: 65_536 },
      );
      if (!r.ok) failed++;
    }
  }),
);
if (failed > 0) throw new Error(`${failed} direct POSTs failed`);
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({ seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 }),
);
