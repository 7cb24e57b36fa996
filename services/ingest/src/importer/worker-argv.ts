// The Node options a worker thread of the importer starts with: the process's own, but for the TypeScript loader's
// (`--import tsx` and the like), which the worker's entry registers itself. Inherited, it would be registered twice
// in the worker, which doubles its start (~0.2 s of CPU for the import worker).
import { Worker, type WorkerOptions } from 'node:worker_threads';

const LOADER_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    const eq = arg.indexOf('=');
    const [flag, value] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, execArgv[i + 1]];
    if (LOADER_FLAGS.has(flag) && value !== undefined && /(^|[\\/@])tsx([\\/]|$)/.test(value)) {
      if (eq < 0) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/**
 * A worker thread whose entry registers the TypeScript loader itself. Options given explicitly are checked, and a
 * worker refuses some that it inherits without a word (V8's `--max-old-space-size`, `--stack-size`, `--expose-gc`):
 * it is then started with the process's own, loader and all, as before.
 */
export function loaderWorker(url: URL, options: Omit<WorkerOptions, 'execArgv'> = {}): Worker {
  const execArgv = workerExecArgv();
  if (execArgv.length === process.execArgv.length) return new Worker(url, options);
  try {
    return new Worker(url, { ...options, execArgv });
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    return new Worker(url, options);
  }
}
