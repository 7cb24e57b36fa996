// npm run docs:screenshot [-- FILE]: the API reference (/docs) as a real Chromium shows it, saved as a PNG
// (docs/images/api-reference.png by default). Starts its own plans service on a free port.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { startApp } from '@pra/platform/testing';
import { createPlansApp } from '../src/app.js';
import { findChromium, screenshot } from '../src/headless-chromium.js';

const out = resolve(process.argv[2] ?? new URL('../../../docs/images/api-reference.png', import.meta.url).pathname);
const chromium = findChromium();
if (!chromium) {
  console.error('No Chromium here: apt-get install chromium (or set CHROMIUM_PATH), then run this again.');
  process.exit(2);
}
const app = await startApp(createPlansApp({ purchaseUrl: 'https://example.com/pricing', publicBaseUrl: '/api/v1' }));
try {
  mkdirSync(dirname(out), { recursive: true });
  await screenshot(chromium, `${app.url}/docs`, out);
  console.log(`saved ${out}`);
} finally {
  await app.close();
}
