// A directory laid out as the image (Dockerfile) is, for tests that run the bundles as the image would, without Docker:
// the production packages its deps stage installs, the files its last stage copies, and dist/.
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';

/** A package-lock.json v3 entry, as far as this reads it. */
interface LockEntry {
  link?: boolean;
  /** Installed only where its platform matches (`os`, `cpu`), or only if something needs it. */
  optional?: boolean;
  /** As `optional`, for a package that development needs too. */
  devOptional?: boolean;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** A Dockerfile's build stages, by name (`FROM … AS name`; the last, unnamed, is ''), each with its text. */
function stages(dockerfile: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const text of dockerfile.split(/^(?=FROM )/m).filter((s) => s.startsWith('FROM '))) {
    const name = /^FROM \S+(?: AS (\S+))?/.exec(text)![1] ?? '';
    out.set(name, text);
  }
  return out;
}

/** The workspaces the deps stage installs the production dependencies of (its `npm ci --omit=dev -w …`). */
export function imageWorkspaces(dockerfile: string): string[] {
  const deps = stages(dockerfile).get('deps');
  const install = deps && /npm ci --omit=dev[^&]*/.exec(deps.replace(/\\\n/g, ' '));
  if (!install) throw new Error("the Dockerfile's deps stage has no `npm ci --omit=dev` to read its workspaces from");
  const workspaces = [...install[0].matchAll(/(?:-w|--workspace)[ =](\S+)/g)].map((m) => m[1]!);
  if (workspaces.length === 0) throw new Error("the Dockerfile's `npm ci --omit=dev` names no workspace (-w)");
  // The root's own dependencies too, with --include-workspace-root.
  return install[0].includes('--include-workspace-root') ? ['', ...workspaces] : workspaces;
}

/**
 * The packages (their package-lock.json paths, `node_modules/…`) that `npm ci --omit=dev -w <workspaces>` installs:
 * the workspaces' dependencies, optional ones and required peers included, and theirs, found as node finds them (the
 * nearest node_modules up from the package that needs one). A workspace a dependency links to is followed; it is no
 * package.
 */
export function productionPackages(lock: { packages: Record<string, LockEntry> }, workspaces: readonly string[]) {
  const { packages } = lock;
  const found = new Set<string>();
  const pending = [...workspaces];
  const resolveFrom = (from: string, name: string): string | null => {
    for (let dir = from; ; dir = posix.dirname(dir)) {
      const at = dir === '' || dir === '.' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
      if (packages[at]) return at;
      if (dir === '' || dir === '.') return null;
    }
  };
  const visited = new Set<string>();
  while (pending.length > 0) {
    const at = pending.pop()!;
    if (visited.has(at)) continue;
    visited.add(at);
    const entry = packages[at];
    if (!entry) throw new Error(`package-lock.json has no entry ${at === '' ? '(the root)' : at}`);
    // An optional peer is installed only when something else needs it (and is found there).
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((n) => !entry.peerDependenciesMeta?.[n]?.optional);
    const needs = new Set([
      ...peers,
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.dependencies ?? {}),
    ]);
    for (const name of needs) {
      const dep = resolveFrom(at, name);
      // An optional dependency for another platform, or a peer nothing installs: node would not find it either.
      if (!dep) {
        if (entry.dependencies?.[name]) throw new Error(`${at || 'the root'} needs ${name}: not in package-lock.json`);
        continue;
      }
      const target = packages[dep]!;
      if (target.link) pending.push(target.resolved!);
      else {
        found.add(dep);
        pending.push(dep);
      }
    }
  }
  return found;
}

/**
 * Lays `layoutDir` out as the image: package.json; node_modules with the production packages only (each linked to the
 * repository's copy; a dev-only package is missing, as it is in the image); what the Dockerfile's last stage copies
 * from the repository (its `COPY --chown=… <path> ./<path>` lines, every one of its COPY lines not `--from` another
 * stage); and `dist` (the bundles, built elsewhere) at the same path from there as from the repository. A file a
 * bundle reads at its source location that the Dockerfile does not copy is missing here too, and so is the
 * TypeScript source of the workers' shims. Run processes there with IMAGE_LAYOUT_ENV. Not the same: the workspaces'
 * links in node_modules (@pra/…) are left out (a bundle has its workspaces' code in it), and so are packages installed
 * in a workspace's own node_modules.
 */
export function imageLayout(root: string, layoutDir: string, dist: string): { copied: string[] } {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const last = [...stages(dockerfile).values()].pop()!;
  const copies = [...last.matchAll(/^COPY --chown=\S+ (\S+) \.\/(\S+)\s*$/gm)];
  // A COPY of another form would be skipped here.
  const all = [...last.matchAll(/^COPY (?!--from=)/gm)].length;
  if (copies.length !== all)
    throw new Error(`the Dockerfile's last stage has ${all} COPY lines; ${copies.length} read`);
  for (const [, from, to] of copies) cpSync(join(root, from!), join(layoutDir, to!), { recursive: true });
  cpSync(join(root, 'package.json'), join(layoutDir, 'package.json'));
  cpSync(dist, join(layoutDir, relative(root, dist)), { recursive: true });
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  // A top-level package brings the packages nested in it.
  for (const p of productionPackages(lock, imageWorkspaces(dockerfile))) {
    if (!/^node_modules\/(@[^/]+\/)?[^/@][^/]*$/.test(p)) continue;
    if (!existsSync(join(root, p))) {
      // An optional one for another platform (optional in production, or in production and development alike): npm
      // skips it in the image too.
      if (lock.packages[p].optional || lock.packages[p].devOptional) continue;
      throw new Error(`${p} is not installed in the repository: run npm ci`);
    }
    mkdirSync(dirname(join(layoutDir, p)), { recursive: true });
    symlinkSync(join(root, p), join(layoutDir, p), 'dir');
  }
  return { copied: copies.map((c) => c[1]!) };
}

/**
 * The environment a process run from an image layout needs: its packages are links to the repository's, and node
 * would resolve a package's own imports from where a link points (the repository's node_modules, dev packages and
 * all); with NODE_PRESERVE_SYMLINKS, from the layout's node_modules, as in the image.
 */
export const IMAGE_LAYOUT_ENV = { NODE_PRESERVE_SYMLINKS: '1' } as const;
