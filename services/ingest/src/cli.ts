// npm run ingest -- <command>
//   migrate                                  apply the records schema migrations
//   generate --count N [--seed S] [--states CA,NV] [--batch N]
//   import --mapping FILE --file CSV [--dry-run] [--workers N (0-16)]
//                                            load a county extract through a mapping (again: update what changed);
//                                            --dry-run checks the file against the mapping and reports, writing nothing
//                                            (no database made, no migration: a store behind this schema is refused);
//                                            --workers N: its worker threads (default: 2 for a large file, else none)
//   remove --source SOURCE                   delete every record of one source ("import:<mapping name>" or
//                                            "synthetic:<seed>")
//   rekey [--batch N]                        recompute stored address keys after a normaliser change (resumable)
//   prune-changes                            delete change events past their retention period (the autocomplete
//                                            indexer does it hourly)
//   sample [--count N]                       the npm start sample: DC tracts, Sacramento, N synthetic records
//   validate-mapping FILE                    check a mapping file without loading anything
import { useLocalStack } from '@pra/platform/local-stack';
import { createPool, databaseExists, ensureDatabase, isConnectionFailure } from '@pra/platform/db';
import { COMMANDS, readCliArgs, USAGE } from './cli-args.js';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { checkRecordsSchema, migrateRecords } from './data/migrate.js';
import { loadGenerated } from './generator/load-generated.js';
import { formatReport } from './importer/apply-rules.js';
import { type ImportProgressEvent, type ImportSummary, importCsv } from './importer/import-csv.js';
import { removeHeldOnSignals } from './importer/held-spill.js';
import { summaryLine } from './importer/summary-line.js';
import { loadMapping } from './importer/mapping.js';
import { loadSampleDataset, propertyCount } from './load-sample.js';
import { FileProgress } from './progress.js';
import { importedSources, removeSource } from './data/remove-source.js';
import { rekeyAddresses } from './data/rekey.js';
import { CHANGE_RETENTION_DAYS, pruneChangeEvents } from './data/change-events.js';
import { ADDRESS_KEYS_VERSION } from '@pra/core/address';

/** The CLI is reaching its PostgreSQL: no statement of its own has run yet. */
let connecting = false;

async function main() {
  const { command, positionals, values, workers, dryRun } = readCliArgs(process.argv.slice(2));
  if (command === undefined || !COMMANDS.includes(command)) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  if (command === 'validate-mapping') {
    const m = loadMapping(positionals[1] ?? values.mapping ?? '');
    console.log(`mapping ${m.name} (${m.kind}) is valid: ${Object.keys(m.fields).length} fields`);
    return;
  }
  // The PostgreSQL npm start ran with, unless DATABASE_URL says otherwise.
  useLocalStack('ingest');
  const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  // A dry run writes nothing: it makes no database and applies no migration, and refuses a store not at this schema.
  // Until the store has answered, any failure is one of reaching it (a wrong host, password, TLS setting or URL,
  // whatever words the driver has for it): the hint to check the server goes with it.
  connecting = true;
  if (dryRun && !(await databaseExists(url))) {
    connecting = false;
    throw new Error(
      'the database named above does not exist; a dry run writes nothing, so it does not make one: ' +
        'run `npm run ingest -- migrate` (or npm start) first, then the dry run',
    );
  }
  if (!dryRun) await ensureDatabase(url);
  const pool = createPool(url, 4, 'ingest');
  try {
    await pool.query('SELECT 1');
    connecting = false;
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
        // Stopped by Ctrl-C or SIGTERM, the rows the import holds back on disk go with it.
        removeHeldOnSignals();
        const mapping = loadMapping(values.mapping!);
        const progress = new FileProgress(`import ${mapping.name}`);
        let last: ImportProgressEvent = {
          rowsRead: 0,
          rowsWhole: 0,
          bytesRead: 0,
          bytesPassed: 0,
          rowsHeld: 0,
          totalBytes: null,
        };
        const started = performance.now();
        const s = await importCsv(pool, mapping, values.file!, {
          dryRun,
          workers,
          onWait: (m) => console.error(m),
          onPreread: (p) => progress.reading(p),
          // Told after each batch is written (each in order, each committed), or read in a dry run.
          onProgress: (p) => {
            last = p;
            progress.update(p);
          },
        }).catch((err: Error) => {
          throw dryRun || last.rowsRead === 0 ? err : partlyWritten(err, last);
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
        for (const line of afterImport(s)) console.log(line);
        break;
      }
      case 'remove': {
        const n = await removeSource(pool, values.source!, { onWait: (m) => console.error(m) });
        console.log(`removed ${n.toLocaleString('en-US')} records of ${values.source}`);
        if (n === 0) {
          // Nothing to remove is not a failure (a script may remove twice), but a misnamed source looks the same.
          const sources = await importedSources(pool);
          console.error(
            `no record is of ${values.source}. Sources imported into this store: ${sources.join(', ') || 'none'}` +
              " (a joined file, such as a county's sales or details, writes into the records of the mapping it joins;" +
              ' synthetic:<seed> sources, which keep no import state, are not listed)',
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

/** What to do after an import, by what it skipped. */
function afterImport(s: ImportSummary): string[] {
  // Files imported out of order: every row is one the store lacks (or, joined by address, an address it cannot
  // place), and the fix is the other file first, not this one's rows.
  if (s.joins && !s.joins.loaded)
    return [
      `The store holds no parcels of ${s.joins.mapping} yet, and this file only adds to them: import the file of ` +
        `mapping ${s.joins.mapping} first, then this one again (docs/data.md gives each county's files in order).`,
    ];
  if (s.skipped > s.notInStore)
    return ['Skipped rows are listed above by line; fix them in the file and import it again.'];
  if (s.notInStore > 0 && s.joins)
    return [`Those rows are listed above by line: parcels the file of ${s.joins.mapping} does not list (or not yet).`];
  return [];
}

/**
 * An import that failed after some of its batches were written: they stay (each was committed whole), and the same
 * file imported again finds them unchanged and writes the rest.
 */
function partlyWritten(err: Error, at: { rowsRead: number; rowsWhole: number }): Error {
  const fmt = (n: number) => n.toLocaleString('en-US');
  // Rows of parcels met again are held to the file's end (held-rows.ts): the rows written are not all the first ones.
  const which =
    at.rowsWhole === at.rowsRead
      ? `At least the file's first ${fmt(at.rowsRead)} rows were written`
      : `At least ${fmt(at.rowsRead)} rows (the file's first ${fmt(at.rowsWhole)} all among them) were written`;
  return new Error(
    `${err.message}\n${which} before this, in whole batches; once the cause is fixed, import the whole file again: ` +
      'it finds those unchanged and writes the rest.',
    { cause: err },
  );
}

main().catch((err: Error) => {
  console.error(`ingest failed: ${err.message}`);
  if (connecting || isConnectionFailure(err))
    console.error(
      'Check that the PostgreSQL named above is reachable (DATABASE_URL, else the one npm start ran with, else postgres://postgres@127.0.0.1:5432/property_records).',
    );
  process.exit(1);
});
