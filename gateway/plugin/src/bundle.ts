// Bundles the plugin into one CommonJS file for kong-js-pluginserver (which require()s plugins): what the Kong
// image ships, and what the plugin-server tests load. `npm run build:plugin -- <out dir>`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Writes the bundle; returns its path and the files it holds (the tests check that no express or pg got in). */
export async function bundlePlugin(outDir: string): Promise<{ outfile: string; inputs: string[] }> {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, 'pra-gateway.js');
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    external: ['pg-native'],
    logLevel: 'warning',
    metafile: true,
  });
  return { outfile, inputs: Object.keys(result.metafile.inputs) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { outfile, inputs } = await bundlePlugin(process.argv[2] ?? 'gateway/plugin/dist');
  console.log(`wrote ${outfile} (${inputs.length} modules)`);
}
