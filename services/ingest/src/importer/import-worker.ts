// Worker thread of an import: parses the batches the main thread sends it and builds their writes (import-work.ts).
// Messages are handled in arrival order; the main thread sends a batch's mentions only after its parse (and, for a
// joined file whose parcels the store lacks, its unreport), and its build (with the owner ids of those mentions) after
// them.
import { parentPort, workerData } from 'node:worker_threads';
import {
  type BuildRequest,
  encodeBuilt,
  ImportWork,
  type OwnersResolved,
  type RowBatch,
  type WorkSetup,
} from './import-work.js';
import type { ZipEvidenceEntry } from '../domain/zip-evidence.js';
import { loadNameLists } from '../domain/name-frequencies.js';
import { readsNames } from './mapping.js';

export type WorkerRequest =
  | { kind: 'parse'; batch: number; rows: RowBatch }
  | { kind: 'evidence'; batch: number; rows: RowBatch }
  | { kind: 'use-evidence'; batch: number; entries: ZipEvidenceEntry[] }
  | { kind: 'unreport'; batch: number; identities: string[] }
  | ({ kind: 'mentions' } & BuildRequest)
  | ({ kind: 'build' } & OwnersResolved);

const setup = workerData as WorkSetup;
// The name lists read as the worker starts, as the main thread read them: one that cannot be read fails the worker,
// and with it the import, not each row.
if (readsNames(setup.mapping)) loadNameLists();
const work = new ImportWork(setup);
const port = parentPort!;
port.on('message', (msg: WorkerRequest) => {
  try {
    if (msg.kind === 'parse') {
      port.postMessage({ batch: msg.batch, kind: 'parsed', result: work.parse(msg.batch, msg.rows) });
    } else if (msg.kind === 'evidence') {
      port.postMessage({ batch: msg.batch, kind: 'evidence', result: work.zipEvidence(msg.rows) });
    } else if (msg.kind === 'use-evidence') {
      work.useZipEvidence(msg.entries);
      port.postMessage({ batch: msg.batch, kind: 'used', result: null });
    } else if (msg.kind === 'unreport') {
      port.postMessage({ batch: msg.batch, kind: 'unreported', result: work.unreport(msg.batch, msg.identities) });
    } else if (msg.kind === 'mentions') {
      port.postMessage({ batch: msg.batch, kind: 'mentions', result: work.mentions(msg) });
    } else {
      const { built, transfer } = encodeBuilt(work.build(msg));
      port.postMessage({ batch: msg.batch, kind: 'built', result: built }, transfer);
    }
  } catch (err) {
    port.postMessage({ batch: msg.batch, kind: 'error', message: (err as Error).stack ?? String(err) });
  }
});
