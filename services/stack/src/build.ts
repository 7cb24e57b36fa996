// npm run build: every production entry point bundled to one JavaScript file in dist/ (our TypeScript compiled in,
// node_modules packages left as imports), so images run `node dist/<name>.js` without tsx or the compiler.
// `npm run build -- --out DIR` writes elsewhere (inside the repository: the bundles import node_modules from it).
//
// A module that finds its files next to itself (`new URL('../../migrations/', import.meta.url)`) keeps finding them:
// in every bundled module but the entry point, import.meta.url is replaced by the URL of its source file, so the
// migrations and data files are read from where they are in the repository (and in the image, which copies them).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** dist/<name>.js <- its source, from the repository root. */
export const ENTRY_POINTS: Readonly<Record<string, string>> = {
  lookup: 'services/lookup/src/server.ts',
  autocomplete: 'services/autocomplete/src/server.ts',
  'account-billing': 'services/account-billing/src/server.ts',
  'billing-worker': 'services/account-billing/src/worker.ts',
  plans: 'services/plans/src/server.ts',
  gateway: 'gateway/local/src/server.ts',
  migrate: 'services/stack/src/migrate-all.ts',
  admin: 'services/account-billing/src/cli.ts',
  ingest: 'services/ingest/src/cli.ts',
  /** `node --import ./dist/telemetry-register.js dist/<service>.js`: OpenTelemetry before the service loads. */
  'telemetry-register': 'shared/platform/src/telemetry/register.ts',
};

/** Every package a workspace depends on: imported at run time from node_modules, never bundled. */
function externalPackages(): string[] {
  const manifests = ['package.json', ...['shared/core', 'shared/platform', 'services/lookup', 'services/autocomplete',
    'services/account-billing', 'services/plans', 'services/ingest', 'services/stack', 'gateway/local', 'gateway/plugin'].map((w) => `${w}/package.json`)];
  const names = new Set<string>();
  for (const m of manifests) {
    const pkg = JSON.parse(readFileSync(join(root, m), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) for (const n of Object.keys(pkg[field] ?? {})) names.add(n);
  }
  return [...names].filter((n) => !n.startsWith('@pra/')).flatMap((n) => [n, `${n}/*`]);
}

/** import.meta.url of each bundled module (entry points excepted) -> the URL of its own source file. */
function sourceRelativeUrls(outDir: string, entries: Set<string>): Plugin {
  return {
    name: 'source-relative-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.(ts|mjs)$/ }, async (args) => {
        if (args.path.includes('/node_modules/')) return undefined;
        const contents = await readFile(args.path, 'utf8');
        if (entries.has(args.path) || !contents.includes('import.meta.url')) return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
        const fromOut = relative(outDir, args.path).split('\\').join('/');
        const replaced = contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`);
        return { contents: replaced, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

export async function buildAll(outDir = join(root, 'dist'), log: (line: string) => void = () => {}): Promise<string[]> {
  const out = resolve(outDir);
  const entryPoints = Object.entries(ENTRY_POINTS).map(([name, src]) => ({ in: join(root, src), out: name }));
  const started = performance.now();
  await build({
    entryPoints,
    outdir: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: 'linked',
    external: externalPackages(),
    plugins: [sourceRelativeUrls(out, new Set(entryPoints.map((e) => e.in)))],
    logLevel: 'warning',
  });
  const files = Object.keys(ENTRY_POINTS).map((n) => join(out, `${n}.js`));
  log(`built ${files.length} entry points in ${Math.round(performance.now() - started)} ms: ${relative(root, out) || '.'}/{${Object.keys(ENTRY_POINTS).join(',')}}.js`);
  return files;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  buildAll(values.out ? resolve(values.out) : undefined, (l) => console.log(l)).catch((err: Error) => {
    console.error(`build failed: ${err.message}\nFix the error above (npm run typecheck shows it with context) and run npm run build again.`);
    process.exit(1);
  });
}

