// k6, pinned: found on PATH or in GOPATH/bin at the pinned version, else built with `go install`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const K6_MODULE = 'go.k6.io/k6';
export const K6_VERSION = 'v1.8.1';

function goBin(): string | null {
  for (const go of ['go', '/usr/local/go/bin/go']) if (spawnSync(go, ['version']).status === 0) return go;
  return null;
}

function pinnedPath(go: string | null): string {
  const gopath = go ? execFileSync(go, ['env', 'GOPATH'], { encoding: 'utf8' }).trim() : join(homedir(), 'go');
  return join(gopath, 'bin', 'k6');
}

/** The pinned k6 if it is installed, else null. */
export function findK6(): string | null {
  const bin = pinnedPath(goBin());
  return existsSync(bin) && spawnSync(bin, ['version'], { encoding: 'utf8' }).stdout.includes(`k6 ${K6_VERSION}`)
    ? bin
    : null;
}

export function ensureK6(log: (l: string) => void): string {
  const found = findK6();
  if (found) return found;
  const go = goBin();
  const bin = pinnedPath(go);
  if (!go)
    throw new Error(
      `k6 ${K6_VERSION} is not installed and Go is missing: install Go (https://go.dev/dl), or k6 itself, and run again`,
    );
  log(`installing k6 ${K6_VERSION}: go install ${K6_MODULE}@${K6_VERSION} (a few minutes the first time)`);
  execFileSync(go, ['install', `${K6_MODULE}@${K6_VERSION}`], { stdio: 'inherit' });
  return bin;
}
