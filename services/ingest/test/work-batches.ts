// A roll's first load up to the worker's stages, without a database: the setup an import gives its workers and the
// file's batches as the main thread reads them. For tests that drive ImportWork directly, and bench:import-stages,
// which passes the functions of another checkout's importer (--against): so they are given, not imported here.
import type { cellMask, readHeader } from '../src/importer/csv-records.js';
import type { readBatches } from '../src/importer/import-batches.js';
import type { spokenFor } from '../src/importer/import-merge.js';
import type { RowBatch, WorkSetup } from '../src/importer/import-work.js';
import type { Mapping } from '../src/importer/mapping.js';
import type { identityColumns } from '../src/importer/mapping-rules.js';

/** The importer's functions these call, from this checkout or another. */
export interface ReaderModules {
  readHeader: typeof readHeader;
  cellMask: typeof cellMask;
  readBatches: typeof readBatches;
  identityColumns: typeof identityColumns;
  spokenFor: typeof spokenFor;
}

/** The setup importCsv gives a worker for a first load of `file` (no change events: a mapping's first load). */
export async function firstLoadSetup(
  m: ReaderModules,
  mapping: Mapping & { kind: 'property' },
  file: string,
): Promise<WorkSetup> {
  return {
    mapping,
    header: await m.readHeader(file, mapping.delimiter),
    source: `import:${mapping.name}`,
    now: new Date().toISOString(),
    // As importCsv makes them.
    ...(({ mapped, fillOnly }) => ({ mapped: [...mapped], fillOnly: [...fillOnly] }))(m.spokenFor(mapping.fields)),
    emitEvents: false,
  };
}

/** The file's batches as the main thread reads them for worker threads (no cells kept). */
export async function readAllBatches(
  m: ReaderModules,
  file: string,
  setup: WorkSetup,
  batchSize: number,
): Promise<RowBatch[]> {
  const { mapping, header } = setup;
  const reader = m.readBatches<number, RowBatch>(
    {
      file,
      delimiter: mapping.delimiter,
      batchSize,
      executors: [0],
      cellsRead: m.cellMask(header, []),
      parcelCells: m.identityColumns(mapping).map((c) => header.lastIndexOf(c)),
    },
    async (_executor, _batch, rows) => rows,
  );
  const out: RowBatch[] = [];
  for (let b = await reader.take(); b !== null; b = await reader.take()) out.push(await b.parsed);
  await reader.finished;
  return out;
}
