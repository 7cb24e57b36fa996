// Runs the system's processes and keeps them running: a child that dies is restarted after a delay that doubles
// with each quick death (up to a ceiling, back to the start once it has stayed up), with one line that says which
// process, how it ended and its last words on stderr. Stopping sends SIGTERM to all, then SIGKILL to stragglers.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildSpec {
  name: string;
  /** The TypeScript entry point, from the supervisor's cwd. */
  entry: string;
  env: Record<string, string>;
}

export interface SupervisorOptions {
  cwd: string;
  /** node arguments before the entry point (tsx, telemetry). */
  nodeArgs: readonly string[];
  log: (line: string) => void;
  /** The environment every child starts from (default: this process's). */
  baseEnv?: NodeJS.ProcessEnv;
  /** First restart delay, its ceiling, and how long a child must stay up for the delay to start over. */
  backoff?: { initialMs: number; maxMs: number; stableAfterMs: number };
  /** Where the children's stdout goes (their stderr is passed through and its tail kept). */
  stdout?: 'inherit' | 'ignore';
}

interface Supervised {
  spec: ChildSpec;
  process?: ChildProcess;
  startedAt: number;
  quickDeaths: number;
  restarts: number;
  lastWords: string;
  timer?: NodeJS.Timeout;
}

const DEFAULT_BACKOFF = { initialMs: 500, maxMs: 30_000, stableAfterMs: 60_000 };

/** The last non-empty line of a child's stderr, shortened: usually the error it died of. */
function lastLine(text: string): string {
  const line =
    text
      .trimEnd()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .at(-1) ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}

export class Supervisor {
  private readonly children = new Map<string, Supervised>();
  private stopping = false;
  private readonly backoff: { initialMs: number; maxMs: number; stableAfterMs: number };

  constructor(private readonly o: SupervisorOptions) {
    this.backoff = o.backoff ?? DEFAULT_BACKOFF;
  }

  start(spec: ChildSpec): void {
    const s: Supervised = { spec, startedAt: 0, quickDeaths: 0, restarts: 0, lastWords: '' };
    this.children.set(spec.name, s);
    this.spawn(s);
  }

  /** The pid of a child now, and how often it was restarted. */
  status(name: string): { pid?: number; restarts: number } {
    const s = this.children.get(name);
    return { pid: s?.process?.pid, restarts: s?.restarts ?? 0 };
  }

  private spawn(s: Supervised): void {
    s.startedAt = Date.now();
    s.lastWords = '';
    const child = spawn(process.execPath, [...this.o.nodeArgs, s.spec.entry], {
      cwd: this.o.cwd,
      env: { ...(this.o.baseEnv ?? process.env), ...s.spec.env },
      stdio: ['ignore', this.o.stdout ?? 'inherit', 'pipe'],
    });
    s.process = child;
    child.stderr!.on('data', (d: Buffer) => {
      process.stderr.write(d);
      s.lastWords = (s.lastWords + d.toString()).slice(-4_096);
    });
    child.once('exit', (code, signal) => this.exited(s, child, code, signal));
  }

  private exited(s: Supervised, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (s.process !== child) return;
    s.process = undefined;
    if (this.stopping) return;
    const upMs = Date.now() - s.startedAt;
    s.quickDeaths = upMs >= this.backoff.stableAfterMs ? 0 : s.quickDeaths + 1;
    const delay = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** Math.max(0, s.quickDeaths - 1));
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const words = lastLine(s.lastWords);
    this.o.log(
      `${s.spec.name} ${how} after ${(upMs / 1000).toFixed(1)} s${words ? ` (last error output: ${words})` : ''}; ` +
        `restarting it in ${(delay / 1000).toFixed(1)} s (restart ${s.restarts + 1})`,
    );
    s.timer = setTimeout(() => {
      s.timer = undefined;
      if (this.stopping) return;
      s.restarts++;
      this.spawn(s);
    }, delay);
  }

  /** SIGTERM to every child (in-flight requests finish), SIGKILL to any still running after graceMs. */
  async stop(graceMs = 8_000): Promise<void> {
    this.stopping = true;
    const running: Promise<void>[] = [];
    for (const s of this.children.values()) {
      if (s.timer) clearTimeout(s.timer);
      const child = s.process;
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      running.push(
        new Promise<void>((resolve) => {
          const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        }),
      );
    }
    await Promise.all(running);
  }
}
