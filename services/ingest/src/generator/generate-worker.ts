// Worker thread: one shard of the generator. It formats the COPY text of its batches (batch b goes to worker
// b mod workerCount, with ids from the block reserved for the whole run) and stays at most three batches ahead
// of the writer so memory stays bounded.
import { parentPort, workerData } from 'node:worker_threads';
import { buildCopyChunks } from '../data/copy-rows.js';
import { PropertyGenerator } from './generate.js';

const { seed, count, states, batchSize, startId, workerIndex, workerCount } = workerData as {
  seed: number;
  count: number;
  states: string[];
  batchSize: number;
  startId: number;
  workerIndex: number;
  workerCount: number;
};
const generator = new PropertyGenerator({ seed, states, shard: { index: workerIndex, count: workerCount } });
const MAX_AHEAD = 3;
const utf8 = new TextEncoder();
let inFlight = 0;
let waiting: (() => void) | null = null;

parentPort!.on('message', () => {
  inFlight--;
  waiting?.();
  waiting = null;
});

async function run() {
  for (let offset = workerIndex * batchSize; offset < count; offset += workerCount * batchSize) {
    if (inFlight >= MAX_AHEAD) await new Promise<void>((r) => (waiting = r));
    const n = Math.min(batchSize, count - offset);
    const items = Array.from({ length: n }, () => generator.next());
    const text = buildCopyChunks(startId + offset, items, `synthetic:${seed}`);
    // UTF-8 bytes moved to the main thread without a copy; strings would be cloned, then encoded again there.
    // TextEncoder gives each chunk an ArrayBuffer of its own: a small Buffer.from() lives in Node's shared pool,
    // which Node 24 refuses to transfer (DataCloneError), and transferring it would detach its neighbours.
    const chunks = Object.fromEntries(Object.entries(text).map(([t, s]) => [t, utf8.encode(s)]));
    inFlight++;
    parentPort!.postMessage(
      { chunks, rows: n, tracts: generator.drainNewTracts() },
      Object.values(chunks).map((b) => b.buffer),
    );
  }
  parentPort!.postMessage({ end: true });
}
void run();
