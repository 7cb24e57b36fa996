// Worker thread: one shard of the generator. It builds the COPY data of its batches (batch b goes to worker
// b mod workerCount, with ids from the block reserved for the whole run) and stays at most three batches ahead
// of the writer so memory stays bounded. A batch's parcel ids come from the registry, through the main thread, in
// one request per batch; the next batch is generated while the request is answered.
import { parentPort, workerData } from 'node:worker_threads';
import { buildCopyChunks, transferableChunks } from '../data/copy-rows.js';
import { parcelRefOf } from '../data/parcels.js';
import { idsByRecord, type OwnerMention, recordMentions } from '../domain/owner-keys.js';
import type { PropertyInput } from '../domain/property-input.js';
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
let inFlight = 0;
let waiting: (() => void) | null = null;
let parcelsAnswered: ((ids: RegistryAnswer) => void) | null = null;

/** The registry ids of a batch: its parcels', and its owners' (one per owner field of each record, null where none). */
export interface RegistryAnswer {
  parcelIds: number[];
  ownerIds: (number | null)[];
}
/** What the main thread sends: a batch was written, or the ids this worker asked for. */
export type ToGeneratorWorker = 'ack' | RegistryAnswer;
/** A request for the registry ids of batch `batch`'s parcels (see ParcelRef) and owners (owner-keys.ts). */
export interface ParcelRequest {
  batch: number;
  parcels: { fips: string[]; keys: string[] };
  owners: (OwnerMention | null)[];
}

parentPort!.on('message', (msg: ToGeneratorWorker) => {
  if (msg === 'ack') {
    inFlight--;
    waiting?.();
    waiting = null;
    return;
  }
  parcelsAnswered?.(msg);
  parcelsAnswered = null;
});

function askParcelIds(batch: number, firstId: number, items: readonly PropertyInput[]): Promise<RegistryAnswer> {
  const refs = items.map(parcelRefOf);
  const request: ParcelRequest = {
    batch,
    parcels: { fips: refs.map((r) => r.fips), keys: refs.map((r) => r.key) },
    owners: recordMentions(firstId, items),
  };
  return new Promise((resolve) => {
    parcelsAnswered = resolve;
    parentPort!.postMessage(request);
  });
}

async function run() {
  const offsets: number[] = [];
  for (let offset = workerIndex * batchSize; offset < count; offset += workerCount * batchSize) offsets.push(offset);
  const itemsAt = (offset: number) =>
    Array.from({ length: Math.min(batchSize, count - offset) }, () => generator.next());
  let items = offsets.length > 0 ? itemsAt(offsets[0]!) : [];
  for (let b = 0; b < offsets.length; b++) {
    const asked = askParcelIds(offsets[b]! / batchSize, startId + offsets[b]!, items);
    // Generated in the shard's order whatever the answer's timing, so a seed always yields the same records.
    const next = b + 1 < offsets.length ? itemsAt(offsets[b + 1]!) : [];
    const { parcelIds, ownerIds } = await asked;
    if (inFlight >= MAX_AHEAD) await new Promise<void>((r) => (waiting = r));
    // Bytes moved to the main thread without a copy; strings would be cloned, then encoded again there.
    const { bytes: chunks, transfer } = transferableChunks(
      buildCopyChunks(startId + offsets[b]!, items, parcelIds, `synthetic:${seed}`, idsByRecord(ownerIds)),
    );
    inFlight++;
    parentPort!.postMessage({ chunks, rows: items.length, tracts: generator.drainNewTracts(), ownerIds }, transfer);
    items = next;
  }
  parentPort!.postMessage({ end: true });
}
void run();
