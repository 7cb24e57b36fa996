// Worker thread: generates properties and formats their COPY text, batch after batch, staying at most
// three batches ahead of the writer so memory stays bounded.
import { parentPort, workerData } from 'node:worker_threads';
import { buildCopyChunks } from '../data/copy-rows.js';
import { PropertyGenerator } from './generate.js';

const { seed, count, states, batchSize, startId } = workerData as {
  seed: number; count: number; states: string[]; batchSize: number; startId: number;
};
const generator = new PropertyGenerator({ seed, states });
const MAX_AHEAD = 3;
let inFlight = 0;
let produced = 0;
let waiting: (() => void) | null = null;

parentPort!.on('message', () => {
  inFlight--;
  waiting?.();
  waiting = null;
});

async function run() {
  while (produced < count) {
    if (inFlight >= MAX_AHEAD) await new Promise<void>((r) => (waiting = r));
    const n = Math.min(batchSize, count - produced);
    const items = Array.from({ length: n }, () => generator.next());
    const text = buildCopyChunks(startId + produced, items, `synthetic:${seed}`);
    // UTF-8 bytes moved to the main thread without a copy; strings would be cloned, then encoded again there.
    const chunks = Object.fromEntries(Object.entries(text).map(([t, s]) => [t, Buffer.from(s)]));
    produced += n;
    inFlight++;
    parentPort!.postMessage(
      { chunks, rows: n, tracts: generator.drainNewTracts() },
      Object.values(chunks).map((b) => b.buffer as ArrayBuffer),
    );
  }
  parentPort!.postMessage({ end: true });
}
void run();
