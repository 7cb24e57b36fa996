// The Go tools .ci/run installs (`go install` into GOPATH/bin): helm, promtool, prometheus, the collector. Found
// through an environment variable naming the binary, else in GOPATH/bin (GOPATH as `go env GOPATH` gives it, else
// the GOPATH variable, else ~/go), else on PATH.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

let gopath: string | undefined;

/** GOPATH as Go itself reports it (a custom GOPATH in Go's own config included). */
export function goPath(): string {
  if (gopath !== undefined) return gopath;
  for (const go of ['go', '/usr/local/go/bin/go']) {
    try {
      gopath = execFileSync(go, ['env', 'GOPATH'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      if (gopath) return gopath;
    } catch {
      // this go is not there: the next one, or the defaults
    }
  }
  gopath = process.env.GOPATH || join(homedir(), 'go');
  return gopath;
}

/**
 * The binary `name`: the path in `envVar` when set (and then only that path: a wrong path is not silently replaced by
 * another binary), else GOPATH/bin/name, else name on PATH; null when none exists.
 */
export function findGoBinary(name: string, envVar: string): string | null {
  const named = process.env[envVar];
  if (named) return existsSync(named) ? named : null;
  const installed = join(goPath(), 'bin', name);
  if (existsSync(installed)) return installed;
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return which.status === 0 && which.stdout.trim() ? which.stdout.trim() : null;
}
