// npm run build: every production entry point bundled to one JavaScript file in dist/ (our TypeScript compiled in,
// hoisted npm packages left as imports; telemetry-register with chunks beside it: SPLIT_ENTRIES), so images run
// `node dist/<name>.js` without tsx or the compiler.
// `npm run build -- --out DIR` writes elsewhere (inside the repository: the bundles import node_modules from it).
//
// A module that finds its files next to itself (`new URL('../../migrations/', import.meta.url)`) keeps finding them:
// in every bundled module but the entry point, import.meta.url is replaced by the URL of its source file, so the
// migrations and data files are read from where they are in the repository (and in the image, which copies them).
// The exception: a worker thread's module (WORKER_ENTRIES) is bundled too, and started from dist/, not from its source.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Worker threads' entries: dist/<name>.js <- the worker's module, started in place of the plain-JS `<name>.mjs` beside
 * it (which registers tsx, then imports the module: neither tsx nor the TypeScript source is in the image). A bundle's
 * `new URL('./<name>.mjs', import.meta.url)` becomes `new URL('./<name>.js', import.meta.url)`, the URL of the running
 * bundle: the worker's bundle beside it in dist/.
 */
export const WORKER_ENTRIES: Readonly<Record<string, { shim: string; source: string }>> = {
  'import-worker': {
    shim: 'services/ingest/src/importer/import-worker.mjs',
    source: 'services/ingest/src/importer/import-worker.ts',
  },
  'generate-worker': {
    shim: 'services/ingest/src/generator/generate-worker.mjs',
    source: 'services/ingest/src/generator/generate-worker.ts',
  },
};

/** dist/<name>.js <- its source, from the repository root. */
export const ENTRY_POINTS: Readonly<Record<string, string>> = {
  lookup: 'services/lookup/src/server.ts',
  autocomplete: 'services/autocomplete/src/server.ts',
  'account-billing': 'services/account-billing/src/server.ts',
  'billing-worker': 'services/account-billing/src/worker.ts',
  'webhooks-worker': 'services/webhooks/src/worker.ts',
  plans: 'services/plans/src/server.ts',
  gateway: 'gateway/local/src/server.ts',
  migrate: 'services/stack/src/migrate-all.ts',
  admin: 'services/account-billing/src/cli.ts',
  ingest: 'services/ingest/src/cli.ts',
  /** `node --import ./dist/telemetry-register.js dist/<service>.js`: OpenTelemetry before the service loads. */
  'telemetry-register': 'shared/platform/src/telemetry/register.ts',
  ...Object.fromEntries(Object.entries(WORKER_ENTRIES).map(([name, w]) => [name, w.source])),
};

/** The package directory node would load `name` from, for a module in `fromDir`: the nearest node_modules up. */
function packageDirFor(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * npm packages stay imports when the bundle in dist/ finds the same copy the source would (the one hoisted to the
 * root node_modules); a copy npm nested inside a workspace (a version conflict) is bundled, since dist/ cannot see it.
 * Our own @pra/* workspaces are always bundled.
 */
function hoistedPackagesExternal(): Plugin {
  return {
    name: 'hoisted-packages-external',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@pra/') || args.path.startsWith('node:') || isBuiltin(args.path)) return undefined;
        const parts = args.path.split('/');
        const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
        const found = packageDirFor(name, args.resolveDir);
        return found === join(root, 'node_modules', name) ? { path: args.path, external: true } : undefined;
      });
    },
  };
}

/** Stands for the running bundle's own import.meta.url while the others are replaced. */
const BUNDLE_URL = '__PRA_BUNDLE_IMPORT_META_URL__';

/** import.meta.url of each bundled module (entry points excepted) -> the URL of its own source file. */
function sourceRelativeUrls(outDir: string, entries: Set<string>): Plugin {
  return {
    name: 'source-relative-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.(ts|mjs)$/ }, async (args) => {
        if (args.path.includes('/node_modules/')) return undefined;
        let contents = await readFile(args.path, 'utf8');
        // A worker started from its plain-JS shim: from its bundle in dist/ instead, by the running bundle's URL
        // (a marker the replacement below leaves alone).
        for (const [name, w] of Object.entries(WORKER_ENTRIES)) {
          if (dirname(join(root, w.shim)) !== dirname(args.path) || !contents.includes(basename(w.shim))) continue;
          const shim = `new URL('./${basename(w.shim)}', import.meta.url)`;
          const started = contents.replaceAll(shim, `new URL('./${name}.js', ${BUNDLE_URL})`);
          // Written another way, the worker would be started from its shim: in the image, a worker that cannot start.
          if (started.includes(basename(w.shim)))
            throw new Error(`${relative(root, args.path)} names ${basename(w.shim)} other than as ${shim}`);
          contents = started;
        }
        if (!entries.has(args.path) && contents.includes('import.meta.url')) {
          const fromOut = relative(outDir, args.path).split('\\').join('/');
          contents = contents.replaceAll(
            'import.meta.url',
            `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`,
          );
        }
        contents = contents.replaceAll(BUNDLE_URL, 'import.meta.url');
        return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

/**
 * Entry points bundled with their dynamic imports left in chunks of their own (dist/<name>-<chunk>-<hash>.js), loaded
 * only when the import runs. telemetry-register: worker threads inherit the process's `--import`, and register.ts
 * imports the SDK only in the main thread; bundled into one file, its ~1,100 OpenTelemetry modules would be loaded by
 * every worker (the ingest CLI's import and generate workers, under the image's entry point), ~0.8 s of its start.
 */
const SPLIT_ENTRIES: ReadonlySet<string> = new Set(['telemetry-register']);

/** The chunks of a split entry `name` (dist/<name>-*.js and their maps): an earlier build's are removed first. */
const isChunkOf = (name: string, file: string) => file.startsWith(`${name}-`) && /\.js(\.map)?$/.test(file);

export async function buildAll(outDir = join(root, 'dist'), log: (line: string) => void = () => {}): Promise<string[]> {
  const out = resolve(outDir);
  const entryPoints = Object.entries(ENTRY_POINTS).map(([name, src]) => ({ in: join(root, src), out: name }));
  const started = performance.now();
  if (existsSync(out)) {
    for (const f of readdirSync(out))
      if ([...SPLIT_ENTRIES].some((name) => isChunkOf(name, f))) rmSync(join(out, f), { force: true });
  }
  const bundle = (entries: typeof entryPoints, split: boolean) =>
    build({
      entryPoints: entries,
      outdir: out,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      sourcemap: 'linked',
      // Chunks are written in the output directory itself, named after their entry (one split entry a build): a
      // bundled module's import.meta.url is replaced by its source's path from that directory.
      ...(split ? { splitting: true, chunkNames: `${entries[0]!.out}-[name]-[hash]` } : {}),
      // Bundled CommonJS code may require() node's own modules.
      banner: {
        js: "import { createRequire as __praCreateRequire } from 'node:module'; const require = __praCreateRequire(import.meta.url);",
      },
      plugins: [hoistedPackagesExternal(), sourceRelativeUrls(out, new Set(entryPoints.map((e) => e.in)))],
      logLevel: 'warning',
    });
  // Every build ends before a failure is reported: none is left writing.
  const builds = await Promise.allSettled([
    bundle(
      entryPoints.filter((e) => !SPLIT_ENTRIES.has(e.out)),
      false,
    ),
    ...entryPoints.filter((e) => SPLIT_ENTRIES.has(e.out)).map((e) => bundle([e], true)),
  ]);
  const failed = builds.find((b) => b.status === 'rejected');
  if (failed) throw failed.reason;
  const files = Object.keys(ENTRY_POINTS).map((n) => join(out, `${n}.js`));
  log(
    `built ${files.length} entry points in ${Math.round(performance.now() - started)} ms: ${relative(root, out) || '.'}/{${Object.keys(ENTRY_POINTS).join(',')}}.js`,
  );
  return files;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  buildAll(values.out ? resolve(values.out) : undefined, (l) => console.log(l)).catch((err: Error) => {
    console.error(
      `build failed: ${err.message}\nFix the error above (npm run typecheck shows it with context) and run npm run build again.`,
    );
    process.exit(1);
  });
}
