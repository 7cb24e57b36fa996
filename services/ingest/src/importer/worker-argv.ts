// The Node options a worker thread of the importer starts with: the process's own, but for the TypeScript loader's
// (`--import tsx` and the like), which the worker's entry registers itself (inherited, it would be registered twice in
// the worker, which doubles its start: ~0.2 s of CPU for the import worker), and for V8's options that a worker
// refuses when given them (`--min-semi-space-size` and `--initial-heap-size`, which `npm run ingest` starts node with,
// and the like): they are process-wide, so the worker has them all the same.
import { Worker, type WorkerOptions } from 'node:worker_threads';

const LOADER_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);
/**
 * Node's options known to take their value as the next argument (they may take it after `=` too). Those not listed
 * here are read as taking none: given a separate value, that value would be read as the script (ingestArgs checks it
 * is one) or, in `process.execArgv`, kept as an option of its own.
 */
const SEPARATE_VALUE = new Set([
  ...LOADER_FLAGS,
  ...['--eval', '-e', '--print', '-p', '--env-file', '--conditions', '-C', '--title', '--input-type'],
  // Some a worker refuses: their value left behind would end the worker's options there (loaderWorker).
  ...['--report-dir', '--report-directory', '--report-filename', '--report-signal', '--diagnostic-dir'],
  ...['--openssl-config', '--icu-data-dir', '--secure-heap', '--secure-heap-min', '--tls-cipher-list'],
  ...['--trace-event-categories', '--trace-event-file-pattern', '--experimental-default-type', '--disable-warning'],
  ...['--redirect-warnings', '--dns-result-order', '--unhandled-rejections', '--heapsnapshot-signal'],
]);

/** An option's flag: `--title` of `--title x`, `--max-old-space-size` of `--max-old-space-size=512`. */
const flagOf = (arg: string) => (arg.indexOf('=') > 0 ? arg.slice(0, arg.indexOf('=')) : arg);

/** One of node's options as given: its flag, with its value when it has one (`--import X`, `--import=X`). */
export interface NodeOption {
  args: string[];
  /** Its value: after `=`, or the next argument; null for a flag alone. */
  value: string | null;
  /** A loader (`--import`, `--require`...): a module run before the script. */
  loader: boolean;
}

/**
 * Node's arguments split: its options in their order, then what follows them, the script with its own arguments.
 * `process.execArgv` has no script: an argument there that is no option (the value of one this does not know to take
 * one) is kept as an option of its own.
 */
export function splitNodeArgs(
  args: readonly string[],
  { execArgv = false }: { execArgv?: boolean } = {},
): { options: NodeOption[]; script: string[] } {
  const options: NodeOption[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' && !execArgv) return { options, script: args.slice(i + 1) };
    if (!arg.startsWith('-')) {
      if (!execArgv) return { options, script: args.slice(i) };
      options.push({ args: [arg], value: null, loader: false });
      continue;
    }
    const flag = flagOf(arg);
    const loader = LOADER_FLAGS.has(flag);
    if (flag !== arg) options.push({ args: [arg], value: arg.slice(flag.length + 1), loader });
    else if (SEPARATE_VALUE.has(flag) && i + 1 < args.length) {
      options.push({ args: [arg, args[i + 1]!], value: args[i + 1]!, loader });
      i++;
    } else options.push({ args: [arg], value: null, loader });
  }
  return { options, script: [] };
}

/** The TypeScript loader, which a worker's entry registers itself. */
const isTsx = (o: NodeOption) => o.loader && o.value !== null && /(^|[\\/@])tsx([\\/]|$)/.test(o.value);

/** The process's options for a worker: all but the TypeScript loader's, which the worker's entry registers itself. */
function workerOptions(execArgv: readonly string[]): NodeOption[] {
  return splitNodeArgs(execArgv, { execArgv: true }).options.filter((o) => !isTsx(o));
}

/** workerOptions as arguments: what a worker starts with before any option it refuses is left out (loaderWorker). */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  return workerOptions(execArgv).flatMap((o) => o.args);
}

/**
 * The options a worker refused, named by its ERR_WORKER_INVALID_EXEC_ARGV ("Initiated Worker with invalid execArgv
 * flags: --min-semi-space-size=64, --stack-size=2000"), or null when the message names one that was not given (a
 * message of another form): the caller must not guess then.
 */
export function refusedFlags(message: string, given: readonly string[]): string[] | null {
  const at = message.lastIndexOf(': ');
  if (at < 0) return null;
  const named = message
    .slice(at + 2)
    .split(', ')
    .map((f) => f.trim())
    .filter(Boolean);
  return named.length > 0 && named.every((f) => given.includes(f)) ? named : null;
}

/** The flags of options a worker of this process refused once: V8's own, which it inherits from the process anyway. */
const refusedByWorkers = new Set<string>();

/**
 * A worker thread whose entry registers the TypeScript loader itself. A worker refuses some options given to it
 * explicitly that it inherits without a word, V8's (`--min-semi-space-size`, `--max-old-space-size`, `--stack-size`,
 * `--expose-gc`), and some of node's (`--title x`): process-wide, they apply to it all the same. Those it names are
 * left out whole (an option's value with it, which left alone would end the worker's options there), then and for
 * the process's later workers. Should its refusal not name them, it starts with the process's own options, loader
 * and all (~0.2 s of CPU more).
 */
export function loaderWorker(url: URL, options: Omit<WorkerOptions, 'execArgv'> = {}): Worker {
  let kept = workerOptions(process.execArgv).filter((o) => !refusedByWorkers.has(flagOf(o.args[0]!)));
  // Nothing to leave out: the worker inherits the process's options.
  if (kept.flatMap((o) => o.args).length === process.execArgv.length) return new Worker(url, options);
  for (;;) {
    const execArgv = kept.flatMap((o) => o.args);
    try {
      return new Worker(url, { ...options, execArgv });
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
      const refused = refusedFlags((err as Error).message, execArgv);
      if (!refused) return new Worker(url, options);
      for (const f of refused) refusedByWorkers.add(flagOf(f));
      const left = kept.filter((o) => !refusedByWorkers.has(flagOf(o.args[0]!)));
      // A refusal that names no option given (not one node makes): the process's own options, as above.
      if (left.length === kept.length) return new Worker(url, options);
      kept = left;
    }
  }
}
