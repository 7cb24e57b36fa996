// The README shows what the code prints: npm start's banner, the client example's output, the admin CLI's commands
// and an import's summary are each the output of the function the code prints with, for the README's values (those
// of a real run, with the keys and secrets elided). Change a printer and this fails until the README says the same.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { saveLocalStack, useLocalStack } from '@pra/platform/local-stack';
import { upBanner } from '../services/stack/src/up-banner.js';
import { chooseStartPorts } from '../services/stack/src/start-ports.js';
import { adminUsage } from '../services/account-billing/src/admin-commands.js';
import { summaryLine } from '../services/ingest/src/importer/summary-line.js';
import { exampleLines as say } from '../clients/typescript/examples/example-lines.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The fenced block that follows `marker` in the README, without its fences. */
function blockAfter(marker: string): string {
  const at = readme.indexOf(marker);
  expect(at, `README has no "${marker}"`).toBeGreaterThanOrEqual(0);
  const open = readme.indexOf('```', at);
  const start = readme.indexOf('\n', open) + 1;
  return readme.slice(start, readme.indexOf('\n```', start));
}

// npm start with its defaults, as the README shows it (a real run's data: the sample, seed 1).
const { services: ports, internal } = chooseStartPorts({});
const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;

describe('README', () => {
  it('"It then prints, for example" is what npm start prints', () => {
    const banner = upBanner({
      records: 50_240,
      apiKey: 'pra_live_...',
      marketplaceSecret: 'mkt_...',
      marketplaceKey: 'pra_live_...',
      gatewayUrl,
      unit: { line1: '65 WATER ST', zip: '47909' },
      sample: { id: 1, apn: '323-8263-257-0000', last: 'FREDERICK', state: 'WV' },
      adminPort: ports.admin,
      internal,
      trace: false,
      settingsFile: '.data/local-stack.json',
    });
    expect(blockAfter('It then prints, for example:')).toBe(banner);
  });

  it("the client example's output is what example-lines.ts prints, after which system it uses", () => {
    const dir = mkdtempSync(join(tmpdir(), 'pra-readme-'));
    try {
      saveLocalStack(
        {
          databaseUrl: 'postgres://postgres@127.0.0.1:5432/property_records',
          redisUrl: 'redis://127.0.0.1:6379',
          redisPrefix: 'pra:',
          ports: { ...ports, internal: internal.gateway },
          baseUrl: `${gatewayUrl}/api/v1`,
          adminUrl: `http://127.0.0.1:${ports.admin}`,
        },
        dir,
      );
      writeFileSync(join(dir, '.data', 'demo-api-key'), 'pra_live_...\n');
      const lines: string[] = [];
      useLocalStack('example:client', ['api'], { root: dir, env: {}, log: (l) => lines.push(l) });
      const home = {
        address: { oneLine: '3526 HIGH ST, SACRAMENTO, CA 95838' },
        identifier: { Id: 50001, apn: '379-8472-551' },
        sale: { lastSale: { date: '2008-05-21', price: 59222 } },
      } as Parameters<typeof say.address>[0];
      const smiths = [
        ['LYDIA SMITH', 'ELYSE SMITH', 'KENNEDY SMITH', 'LAUREN SMITH', 'MAKAYLA SMITH'],
        ['NICHOLAS SMITH', 'MAX SMITH', 'EDWIN HENDERSON', 'OSCAR SMITH', 'AVA SMITH'],
        ['SMITH PROPERTIES LLC', 'AALIYAH GUTIERREZ', 'JASLENE SMITH', 'HANNAH COOK', 'CAMERON SMITH'],
      ];
      const out = [
        '$ npm run example:client',
        ...lines,
        say.address(home),
        say.askedAgain(true),
        say.radius(1, [{ oneLine: '3526 HIGH ST, SACRAMENTO, CA 95838', distance: 0 }]),
        ...smiths.map((names, i) => say.ownerPage('SMITH', i + 1, 59, 5, names)),
        say.batchCost(2, 1),
        say.batchResult({
          id: 'home',
          status: { code: 0 } as never,
          match: { type: 'standardized' } as never,
          property: [{}],
        }),
        say.batchResult({
          id: 'typo',
          status: { code: 404, msg: "No properties found for address '3526 HIHG ST, SACRAMENTO, CA'" } as never,
          match: null,
          property: [],
        }),
        say.usage({
          calls: { today: 32, total: 32, last_used: null },
          credits: { balance: 9950, purchased: 10000, used: 50, expires: null },
        }),
      ];
      expect(blockAfter('With `npm start` running:')).toBe(out.join('\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lists the admin CLI's commands as `npm run admin -- help` prints them", () => {
    expect(blockAfter('The admin CLI (`npm run admin -- help`):')).toBe(adminUsage());
  });

  it("shows an import's summary as `npm run ingest -- import` prints it", () => {
    const block = blockAfter('rolling-sales file (23,006 sales');
    const printed = block.split('\n').find((l) => l.startsWith('nyc-rolling-sales: '));
    const summary = {
      mapping: 'nyc-rolling-sales',
      rowsRead: 23_006,
      added: 20_302,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      dryRun: false,
    };
    expect(printed).toBe(summaryLine(summary, 'property', 23_006 / 15_383)); // a real run's time: 1.4956 s
  });
});
