// The ingest CLI's arguments, read and checked before the database is reached: a typo costs nothing, and an option
// one command has is refused by the others rather than ignored (`remove --dry-run` would remove for real).
import { parseArgs } from 'node:util';

export const USAGE = `usage: npm run ingest -- <migrate | generate --count N [--seed S] [--states CA,NV] | import --mapping FILE --file CSV [--dry-run] [--workers N] | remove --source SOURCE | rekey [--batch N] | prune-changes | sample [--count N] | validate-mapping FILE>`;

/** The commands: any other word gets the usage, before the database is reached (not made, nor migrated, for a typo). */
export const COMMANDS = [
  'migrate',
  'generate',
  'import',
  'remove',
  'rekey',
  'prune-changes',
  'sample',
  'validate-mapping',
];

export interface CliArgs {
  command: string | undefined;
  positionals: string[];
  values: {
    count?: string;
    seed: string;
    states?: string;
    batch?: string;
    mapping?: string;
    file?: string;
    source?: string;
  };
  /** import's --workers, checked (undefined: the import's default). */
  workers: number | undefined;
  /** import --dry-run: writes nothing, not even the schema. */
  dryRun: boolean;
}

export function readCliArgs(args: string[]): CliArgs {
  const { positionals, values } = parseArgs({
    args,
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
  const { 'dry-run': dryRun, workers, ...rest } = values;
  const only = (option: string, of: string) => {
    if (command !== of)
      throw new Error(`${option} is an option of ${of}, not of ${command ?? 'no command'}: nothing was done`);
  };
  if (workers !== undefined) only('--workers', 'import');
  if (dryRun) only('--dry-run', 'import');
  if (command === 'import' && (!values.mapping || !values.file))
    throw new Error('import needs --mapping FILE and --file CSV');
  if (command === 'remove') {
    if (!values.source) throw new Error('remove needs --source SOURCE (e.g. import:sacramento-2008-sales)');
    sourceName(values.source);
  }
  return { command, positionals, values: rest, workers: importWorkers(workers), dryRun: dryRun === true };
}

/**
 * `--workers N`: the import's worker threads, which parse rows and build records (by default two for a large file, none
 * for a small one). At most 16: each thread holds its batches and a heap of its own (docs/data.md), and more threads
 * than cores only share them.
 */
function importWorkers(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const n = /^\d+$/.test(given) ? Number(given) : Number.NaN;
  if (!(n >= 0 && n <= 16))
    throw new Error(`--workers must be a whole number from 0 (none: all in this thread) to 16, not '${given}'`);
  return n;
}

/**
 * A source as an import or the generator names it: `import:<mapping name>` or `synthetic:<seed>`. Anything else names
 * nothing (`remove --source philadelphia-opa` removed nothing and said only that).
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
