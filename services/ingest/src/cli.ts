// npm run ingest -- <command>
//   migrate                                  apply the records schema migrations
//   generate --count N [--seed S] [--states CA,NV] [--batch N]
//   import --mapping FILE --file CSV [--dry-run] [--workers N (0-16)]
//                                            load a county extract through a mapping (again: update what changed);
//                                            --dry-run checks the file against the mapping and reports, writing nothing
//                                            (no database made, no migration: a store behind this schema is refused);
//                                            --workers N: its worker threads (default: 2 for a large file, else none)
//   remove --source SOURCE                   delete every record of one source ("import:<mapping name>")
//   rekey [--batch N]                        recompute stored address keys after a normaliser change (resumable)
//   prune-changes                            delete change events past their retention period (the autocomplete
//                                            indexer does it hourly)
//   sample [--count N]                       the npm start sample: DC tracts, Sacramento, N synthetic records
//   validate-mapping FILE                    check a mapping file without loading anything
import { parseArgs } from 'node:util';
import { useLocalStack } from '@pra/platform/local-stack';
import { createPool, databaseExists, ensureDatabase, isStoreUnavailable } from '@pra/platform/db';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { checkRecordsSchema, migrateRecords } from './data/migrate.js';
import { loadGenerated } from './generator/load-generated.js';
import { formatReport } from './importer/apply-rules.js';
import { importCsv } from './importer/import-csv.js';
import { summaryLine } from './importer/summary-line.js';
import { loadMapping } from './importer/mapping.js';
import { loadSampleDataset, propertyCount } from './load-sample.js';
import { FileProgress } from './progress.js';
import { importedSources, removeSource } from './data/remove-source.js';
import { rekeyAddresses } from './data/rekey.js';
import { CHANGE_RETENTION_DAYS, pruneChangeEvents } from './data/change-events.js';
import { ADDRESS_KEYS_VERSION } from '@pra/core/address';

const USAGE = `usage: npm run ingest -- <migrate | generate --count N [--seed S] [--states CA,NV] | import --mapping FILE --file CSV [--dry-run] [--workers N] | remove --source SOURCE | rekey [--batch N] | prune-changes | sample [--count N] | validate-mapping FILE>`;

/**
 * `--workers N`: the import's worker threads, which parse rows and build records (by default two for a large file, none
 * for a small one). At most 16: each thread holds its batches and a heap of its own (docs/data.md), and more threads
 * than cores only share them. Read before the database is reached, so a typo costs nothing.
 */
function importWorkers(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const n = /^\d+$/.test(given) ? Number(given) : Number.NaN;
  if (!(n >= 0 && n <= 16))
    throw new Error(`--workers must be a whole number from 0 (none: all in this thread) to 16, not '${given}'`);
  return n;
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      count: { type: 'string' },
      seed: { type: 'string', default: '1' },
      states: { type: 'string' },
      batch: { type: 'string' },
      mapping: { type: 'string' },
      file: { type: 'string' },
      source: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      workers: { type: 'string' },
    },
  });
  const command = positionals[0];
  if (values.workers !== undefined && command !== 'import')
    throw new Error(`--workers is an option of import, not of ${command ?? 'no command'}`);
  // Only an import has a dry run: `remove --source X --dry-run` would otherwise remove for real.
  if (values['dry-run'] && command !== 'import')
    throw new Error(`--dry-run is an option of import, not of ${command ?? 'no command'}: nothing was done`);
  const workers = importWorkers(values.workers);
  if (command === 'remove' && values.source !== undefined) sourceName(values.source);
  if (command === 'validate-mapping') {
    const m = loadMapping(positionals[1] ?? values.mapping ?? '');
    console.log(`mapping ${m.name} (${m.kind}) is valid: ${Object.keys(m.fields).length} fields`);
    return;
  }
  // The PostgreSQL npm start ran with, unless DATABASE_URL says otherwise.
  useLocalStack('ingest');
  const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  // A dry run writes nothing: it makes no database and applies no migration, and refuses a store not at this schema.
  const dryRun = command === 'import' && values['dry-run'];
  if (dryRun && !(await databaseExists(url)))
    throw new Error(
      'the database named above does not exist; a dry run writes nothing, so it does not make one: ' +
        'run `npm run ingest -- migrate` (or npm start) first, then the dry run',
    );
  if (!dryRun) await ensureDatabase(url);
  const pool = createPool(url, 4, 'ingest');
  try {
    if (dryRun) await checkRecordsSchema(pool, 'a dry run');
    else await migrateRecords(pool, (l) => console.error(l));
    switch (command) {
      case 'migrate':
        console.log('records schema is up to date');
        break;
      case 'generate': {
        const count = Number(values.count);
        if (!Number.isInteger(count) || count < 1) throw new Error('--count must be a positive integer');
        const states = values.states?.split(',').map((s) => s.trim().toUpperCase());
        const { seconds, rows } = await loadGenerated(pool, {
          seed: Number(values.seed),
          count,
          states,
          batchSize: values.batch ? Number(values.batch) : undefined,
        });
        console.log(
          `loaded ${rows.toLocaleString('en-US')} records in ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString('en-US')}/s)`,
        );
        break;
      }
      case 'import': {
        if (!values.mapping || !values.file) throw new Error('import needs --mapping FILE and --file CSV');
        const mapping = loadMapping(values.mapping);
        const progress = new FileProgress(`import ${mapping.name}`);
        let last = { rowsRead: 0, bytesRead: 0, totalBytes: null as number | null };
        const started = performance.now();
        const s = await importCsv(pool, mapping, values.file, {
          dryRun,
          workers,
          onWait: (m) => console.error(m),
          // Told after each batch is written (each in order, each committed), or read in a dry run.
          onProgress: (p) => {
            last = p;
            progress.update(p);
          },
        }).catch((err: Error) => {
          throw dryRun || last.rowsRead === 0 ? err : partlyWritten(err, last.rowsRead);
        });
        const seconds = (performance.now() - started) / 1000;
        progress.update(last, true);
        for (const e of s.errors.slice(0, 50)) console.error(`line ${e.line}: ${e.reason}`);
        if (s.errors.length > 50) console.error(`... and ${s.errors.length - 50} more bad rows`);
        for (const r of s.refusals.slice(0, 20)) console.error(`line ${r.line}: ${r.reason}`);
        if (s.refusedValues > 20) console.error(`... and ${s.refusedValues - 20} more values refused`);
        console.log(`import report of ${s.mapping} (${values.file}):`);
        for (const l of formatReport(s.report, Object.keys(mapping.fields))) console.log(`  ${l}`);
        if (s.notInStore > 0)
          console.log(
            `${s.notInStore.toLocaleString('en-US')} rows name a parcel the store lacks: nothing was made of them`,
          );
        console.log(summaryLine(s, mapping.kind, seconds));
        if (s.skipped > 0)
          console.log('Skipped rows are listed above by line; fix them in the file and import it again.');
        break;
      }
      case 'remove': {
        if (!values.source) throw new Error('remove needs --source SOURCE (e.g. import:sacramento-2008-sales)');
        const n = await removeSource(pool, values.source, { onWait: (m) => console.error(m) });
        console.log(`removed ${n.toLocaleString('en-US')} records of ${values.source}`);
        if (n === 0) {
          // Nothing to remove is not a failure (a script may remove twice), but a misnamed source looks the same.
          const sources = await importedSources(pool);
          console.error(
            `no record is of ${values.source}. Sources imported into this store: ${sources.join(', ') || 'none'}` +
              " (a joined file, such as a county's sales or details, writes into the records of the mapping it joins)",
          );
        }
        break;
      }
      case 'rekey': {
        // Address keys after a normaliser change, online and resumable (data/rekey.ts); REKEY_PAUSE_MS spares a busy primary.
        const changed = await rekeyAddresses(pool, (l) => console.error(l), {
          batchSize: values.batch ? Number(values.batch) : undefined,
          pauseMs: Number(process.env.REKEY_PAUSE_MS ?? 0),
          progressEveryMs: 2_000,
        });
        console.log(
          `address keys are v${ADDRESS_KEYS_VERSION}: ${changed.toLocaleString('en-US')} records changed keys`,
        );
        break;
      }
      case 'prune-changes': {
        const n = await pruneChangeEvents(pool);
        console.log(`deleted ${n.toLocaleString('en-US')} change events older than ${CHANGE_RETENTION_DAYS} days`);
        break;
      }
      case 'sample': {
        await loadSampleDataset(pool, { count: Number(values.count ?? 50_000), seed: Number(values.seed) });
        console.log(`records now: ${(await propertyCount(pool)).toLocaleString('en-US')}`);
        break;
      }
      default:
        console.error(USAGE);
        process.exitCode = 2;
    }
  } finally {
    await pool.end();
  }
}

/**
 * A source as an import or the generator names it: `import:<mapping name>` or `synthetic:<seed>`. Anything else names
 * nothing (`remove --source philadelphia-opa` removed nothing and said only that), refused before the database.
 */
function sourceName(source: string): void {
  if (/^(import|synthetic):\S/.test(source)) return;
  throw new Error(
    `--source is import:<mapping name> or synthetic:<seed>, not '${source}'` +
      (/^[\w.-]+$/.test(source)
        ? ` (for the records a mapping named ${source} imported: --source import:${source})`
        : ''),
  );
}

/**
 * An import that failed after some of its batches were written: they stay (each was committed whole), and the same
 * file imported again finds them unchanged and writes the rest.
 */
function partlyWritten(err: Error, rows: number): Error {
  return new Error(
    `${err.message}\nThe file's first ${rows.toLocaleString('en-US')} rows were written before this, in whole ` +
      'batches; once the cause is fixed, import the whole file again: it finds those unchanged and writes the rest.',
    { cause: err },
  );
}

/** A connection refused, a login or a database the server does not know (SQLSTATE class 28, 3D000), or its cause. */
function unreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (isStoreUnavailable(err) || (typeof code === 'string' && (code.startsWith('28') || code === '3D000'))) return true;
  return unreachable(err.cause);
}

main().catch((err: Error) => {
  console.error(`ingest failed: ${err.message}`);
  if (unreachable(err))
    console.error(
      'Check that the PostgreSQL named above is reachable (DATABASE_URL, else the one npm start ran with, else postgres://postgres@127.0.0.1:5432/property_records).',
    );
  process.exit(1);
});
