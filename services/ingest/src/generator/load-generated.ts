// Generates `count` properties with a seed and loads them. A worker thread generates and builds COPY data while
// the main thread streams the previous batch into PostgreSQL, so generation and the database use both cores.
import { Worker } from 'node:worker_threads';
import type { Pool } from '@pra/platform/db';
import type { CopyBytes } from '../data/copy-rows.js';
import { reserveIds, withBulkLoadIndexes, writeBatch, writeTracts } from '../data/loader.js';
import { resolveOwners } from '../data/owner-registry.js';
import { registerParcels } from '../data/parcels.js';
import type { TractInput } from '../domain/property-input.js';
import { Progress } from '../progress.js';
import type { ParcelRequest, RegistryAnswer, ToGeneratorWorker } from './generate-worker.js';

export interface GenerateOptions {
  seed: number;
  count: number;
  states?: string[];
  batchSize?: number;
  quiet?: boolean;
}

export interface BatchMessage {
  chunks: CopyBytes;
  rows: number;
  tracts: TractInput[];
  /** The owner ids the batch's records were built with. */
  ownerIds: (number | null)[];
}

/** Seconds include rebuilding the indexes when the load went into an empty store. */
export async function loadGenerated(pool: Pool, opts: GenerateOptions): Promise<{ seconds: number; rows: number }> {
  const started = performance.now();
  const { rows } = await withBulkLoadIndexes(
    pool,
    () => generateAndWrite(pool, opts),
    opts.quiet ? undefined : (l) => console.error(l),
  );
  return { seconds: (performance.now() - started) / 1000, rows };
}

/**
 * Generator workers; fixed (not the machine's core count) so that a seed always yields the same records.
 * Two measured faster than one on 2 cores: generation, not PostgreSQL, was the limit.
 */
export const GENERATOR_WORKERS = 2;

async function generateAndWrite(pool: Pool, opts: GenerateOptions): Promise<{ rows: number }> {
  const batchSize = opts.batchSize ?? 10_000;
  const startId = await reserveIds(pool, opts.count);
  const progress = opts.quiet ? null : new Progress(`generate seed=${opts.seed}`, opts.count);
  const workers = Array.from(
    { length: GENERATOR_WORKERS },
    (_, workerIndex) =>
      new Worker(new URL('./generate-worker.mjs', import.meta.url), {
        workerData: {
          seed: opts.seed,
          count: opts.count,
          states: opts.states ?? [],
          batchSize,
          startId,
          workerIndex,
          workerCount: GENERATOR_WORKERS,
        },
      }),
  );
  let done = 0;
  // One writer: batches are written one at a time, each in its own transaction, in arrival order.
  let chain: Promise<void> = Promise.resolve();
  // Every generated record's id is of the block reserved above: none has owner mentions stored yet.
  const register = parcelRegistrar(pool, { first: startId, count: opts.count });
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const answer = (m: ToGeneratorWorker) => worker.postMessage(m);
            worker.on('message', (msg: BatchMessage | ParcelRequest | { end: true }) => {
              if ('end' in msg) {
                chain.then(resolve, reject);
                return;
              }
              if ('parcels' in msg) {
                register(msg).then(answer, reject);
                return;
              }
              chain = chain.then(async () => {
                await writeTracts(pool, msg.tracts);
                await writeBatch(pool, msg.chunks, msg.rows, { ownerIds: msg.ownerIds });
                done += msg.rows;
                progress?.update(done);
                answer('ack');
              });
              chain.catch(reject);
            });
            worker.on('error', reject);
            worker.on('exit', (code) => {
              if (code !== 0) reject(new Error(`generator worker exited with code ${code}`));
            });
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  progress?.done(done);
  return { rows: done };
}

/**
 * Registers the batches' parcels and resolves their owners in batch order, one round of statements per batch, beside
 * the writer: into a new store a seed then always yields the same parcel and owner ids, whichever worker asks first.
 */
function parcelRegistrar(
  pool: Pool,
  newIds: { first: number; count: number },
): (req: ParcelRequest) => Promise<RegistryAnswer> {
  const asked = new Map<number, { req: ParcelRequest; answer: (ids: Promise<RegistryAnswer>) => void }>();
  let next = 0;
  let chain: Promise<unknown> = Promise.resolve();
  return (req) =>
    new Promise<RegistryAnswer>((resolve, reject) => {
      asked.set(req.batch, { req, answer: (ids) => ids.then(resolve, reject) });
      for (let a = asked.get(next); a; a = asked.get(next)) {
        asked.delete(next++);
        const { fips, keys } = a.req.parcels;
        const owners = a.req.owners;
        const ids = chain.then(async () => ({
          parcelIds: await registerParcels(
            pool,
            fips.map((f, i) => ({ fips: f, key: keys[i]! })),
          ),
          ownerIds: await resolveOwners(pool, owners, { newIds }),
        }));
        chain = ids.catch(() => {});
        a.answer(ids);
      }
    });
}
