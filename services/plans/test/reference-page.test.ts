// /docs in a real headless Chromium: the page loads its assets from plans only (no CDN: a strict CSP would block
// anything else), fetches /openapi.yaml and lists every path of the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startApp, type RunningApp } from '@pra/platform/testing';
import { createPlansApp } from '../src/app.js';
import { findChromium, renderedDom } from '../src/headless-chromium.js';

const chromium = findChromium();
if (!chromium) console.info('[reference-page] SKIPPED: no Chromium here (apt-get install chromium; .ci/run does)');

let app: RunningApp;
beforeAll(async () => {
  app = await startApp(createPlansApp({ purchaseUrl: 'https://example.com/pricing', publicBaseUrl: '/api/v1' }));
});
afterAll(() => app.close());

describe('/docs', () => {
  it('is served from plans with its assets and a CSP that allows nothing from elsewhere', async () => {
    const page = await fetch(`${app.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'; script-src 'self';/);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/init.js']) {
      const res = await fetch(app.url + asset);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(100);
    }
  });

  it.runIf(chromium !== null)(
    'lists every path of the OpenAPI document in a real Chromium',
    async () => {
      const dom = await renderedDom(chromium!, `${app.url}/docs`);
      const paths = Object.keys(parse(await (await fetch(`${app.url}/openapi.yaml`)).text()).paths);
      expect(paths.length).toBeGreaterThan(10);
      const listed = new Set([...dom.matchAll(/data-path="([^"]+)"/g)].map((m) => m[1]));
      expect(paths.filter((p) => !listed.has(p))).toEqual([]);
      expect(dom).toContain('Property Records API');
    },
    90_000,
  );
});
