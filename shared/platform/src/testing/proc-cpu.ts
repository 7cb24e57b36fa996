// CPU time and process trees read from /proc (Linux): what a benchmark measures of its own threads and of the
// servers it drives. A module of its own, light (node's own modules only), so that a benchmark that must start as a CLI starts
// (bench:import-warmup) can read them without the bench kit's HTTP load tools and Redis client.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command name (state, ppid, ...); undefined once the process is gone. */
function procStat(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces: fields are counted after its closing parenthesis.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** A process's command name (`/proc/<pid>/comm`: `postgres` for each PostgreSQL backend); undefined once it is gone. */
export function processName(pid: number | string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined once it is gone. `pid` may
 * also name a thread's entry (`self/task/<tid>`).
 */
export function processCpuSeconds(pid: number | string): number | undefined {
  const fields = procStat(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / ticksPerSecond() : undefined;
}

/** A process and every descendant of it (a postmaster and its backends), from /proc. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const ppid = Number(procStat(d)?.[1]);
    if (ppid) children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
  }
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

let clockTicks: number | undefined;
const ticksPerSecond = () =>
  (clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100);
