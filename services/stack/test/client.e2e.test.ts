// @pra/client against the system through the local gateway: an address lookup, an owner search paged to its end,
// /usage, a marketplace customer, a refusal as a typed error; and `npm run example:client` runs to its end.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { issueKey } from '@pra/account-billing/domain';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import {
  batchLookup,
  changePages,
  type ChangeEvent,
  createPropertyRecordsClient,
  ownerPages,
  PropertyRecordsError,
} from '@pra/client';
import { TestRolls } from '../../ingest/test/change-fixtures.js';
import { startSystem, type RunningSystem } from '../src/system.js';

const MARKETPLACE = `mkt-${randomBytes(16).toString('hex')}`;
let pool: Pool;
let f: BillingFixture;
let system: RunningSystem;
let baseUrl: string;
let owner: string;
let ids: number[];

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}cli${randomBytes(3).toString('hex')}:`);
  system = await startSystem({
    placement: 'in-process',
    pool,
    billing: f,
    gatewayKey: randomBytes(16).toString('hex'),
    marketplaceSecret: MARKETPLACE,
    only: ['lookup', 'account-billing'],
  });
  baseUrl = `${system.gatewayUrl}/api/v1`;
  owner = uniqueStreet();
  ids = await insertProperties(
    pool,
    Array.from({ length: 7 }, (_, i) =>
      makeProperty({
        line1: `${i + 1} ${owner} ST`,
        owner1: { firstName: 'ANN', lastName: owner, fullName: `ANN ${owner}`, type: 'Individual' },
      }),
    ),
  );
});
afterAll(async () => {
  await system?.stop();
  await f?.close();
  await pool?.end();
});

describe('@pra/client', () => {
  it('follows the change feed of a watch list by cursor, each event paid once', async () => {
    const rolls = new TestRolls(pool);
    try {
      const name = `client-feed-${randomBytes(4).toString('hex')}`;
      const street = `FEED ${randomBytes(3).toString('hex').toUpperCase()}`;
      const roll = (owners: string[]) =>
        owners.map((owner, i) => ({ book: 7, page: i + 1, street, zip: '95814', owner }));
      await rolls.import(name, roll(['AL ONE', 'BO TWO', 'CY THREE']));
      const { rows } = await pool.query<{ id: string }>(
        'SELECT id FROM records.properties WHERE source = $1 ORDER BY id',
        [`import:${name}`],
      );
      const watch = rows.map((r) => r.id).join(',');
      const a = await f.fundedAccount(50, { tier: 'growth' });
      const api = createPropertyRecordsClient({ baseUrl, apiKey: a.key });
      const read = async (since?: string) => {
        const events: ChangeEvent[] = [];
        let cursor = since;
        for await (const page of changePages(api, { ids: watch, pagesize: 1, ...(since ? { since } : {}) })) {
          events.push(...page.changes);
          cursor = page.status.cursor;
        }
        return { events, cursor: cursor! };
      };
      const first = await read();
      expect(first.events).toEqual([]); // a first load says nothing
      await rolls.import(name, roll(['AL ONE', 'BO NEW', 'CY NEWER']));
      const next = await read(first.cursor);
      expect(next.events.map((e) => [e.parts, e.owner?.old, e.owner?.new])).toEqual([
        [['owner'], ['BO TWO'], ['BO NEW']],
        [['owner'], ['CY THREE'], ['CY NEWER']],
      ]);
      expect((await read(next.cursor)).events).toEqual([]);
      expect(await f.meter.balance(a.accountId)).toBe(48);
    } finally {
      rolls.close();
    }
  });

  it('looks up a list longer than a batch in chunks, in order; retried with its key, charged once', async () => {
    const a = await f.fundedAccount(300, { tier: 'growth' });
    const api = createPropertyRecordsClient({ baseUrl, apiKey: a.key });
    // 230 entries: the 7 addresses over and over, and one stored nowhere every tenth.
    const entries = Array.from({ length: 230 }, (_, i) => ({
      id: `e${i}`,
      address: i % 10 === 9 ? `999 ${owner} ST` : `${(i % 7) + 1} ${owner} ST`,
      zip: '95814',
    }));
    const key = `list-${randomBytes(6).toString('hex')}`;
    const done = await batchLookup(api, entries, { idempotencyKey: key });
    expect(done.transactionIds).toHaveLength(3);
    expect(done.results.map((r) => r.id)).toEqual(entries.map((e) => e.id));
    expect(done.results.filter((r) => r.status.code === 404)).toHaveLength(23);
    expect(done.recordsReturned).toBe(207);
    expect(done.creditsRemaining).toBe(93);
    // A key too long for ":<chunk>" after it is refused before any call (the API would refuse every chunk).
    await expect(batchLookup(api, entries, { idempotencyKey: 'k'.repeat(254) })).rejects.toThrow(/idempotencyKey/);
    const again = await batchLookup(api, entries, { idempotencyKey: key });
    expect(again.results).toEqual(done.results);
    expect(await f.meter.balance(a.accountId)).toBe(93);
    // Credits for 150 records: the second chunk runs out, the third is never sent.
    const poor = await f.fundedAccount(150, { tier: 'growth' });
    const short = await batchLookup(createPropertyRecordsClient({ baseUrl, apiKey: poor.key }), entries);
    expect(short.transactionIds).toHaveLength(2);
    expect(short.recordsReturned).toBe(150);
    expect(short.results.slice(200).every((r) => r.status.code === 402 && /Not sent/.test(r.status.msg))).toBe(true);
  });

  it('looks an address up, pages an owner search to its end and reads /usage, typed', async () => {
    const a = await f.fundedAccount(100, { tier: 'growth' });
    const api = createPropertyRecordsClient({ baseUrl, apiKey: a.key });
    const found = await api.GET('/property/address', {
      params: { query: { address: `3 ${owner} Street`, zip: '95814' } },
    });
    expect(found.response.status).toBe(200);
    expect(found.data!.property.map((p) => p.identifier.Id)).toEqual([ids[2]]);
    const pages = [];
    for await (const page of ownerPages(api, { lastName: owner, pagesize: 3 })) pages.push(page);
    expect(pages.map((p) => p.status.page)).toEqual([1, 2, 3]);
    expect(pages.flatMap((p) => p.property.map((r) => r.identifier.Id))).toEqual(ids);
    const usage = await api.GET('/usage');
    expect(usage.response.status).toBe(200);
    expect(usage.data!.account).toBeDefined();
  });

  it('calls as a marketplace customer; a refusal comes back as the ErrorResponse', async () => {
    const a = await f.fundedAccount(5, { tier: 'growth' });
    const { key } = await issueKey(f.deps, a.accountId, 'marketplace');
    const mkt = createPropertyRecordsClient({ baseUrl, marketplace: { proxySecret: MARKETPLACE, key } });
    expect(
      (await mkt.GET('/property/address', { params: { query: { address: `1 ${owner} ST`, zip: '95814' } } })).response
        .status,
    ).toBe(200);
    const nobody = createPropertyRecordsClient({ baseUrl, apiKey: 'pra_live_unknown' });
    const refused = await nobody.GET('/usage');
    expect(refused.response.status).toBe(401);
    expect(refused.error!.status.msg).toBe('Invalid API key');
    expect(refused.error!.status.reason).toBe('unauthorized');
    const pages = ownerPages(nobody, { lastName: owner });
    const thrown = await pages.next().catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(PropertyRecordsError);
    // The client's error carries the reason for code to act on.
    expect((thrown as PropertyRecordsError).reason).toBe('unauthorized');
  });

  it('npm run example:client runs against the system and prints the lookup, the radius search, the owner pages, the batch and the usage', async () => {
    const a = await f.fundedAccount(100, { tier: 'growth' });
    const cwd = fileURLToPath(new URL('../../../clients/typescript/', import.meta.url));
    const { code, out } = await new Promise<{ code: number; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'examples/lookup-owner-usage.ts'], {
        cwd,
        env: { ...process.env, API_KEY: a.key, BASE_URL: baseUrl, OWNER: owner },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('exit', (c) => resolve({ code: c ?? 1, out }));
    });
    expect(code, out).toBe(0);
    expect(out).toMatch(/^address: 3526 HIGH ST, SACRAMENTO, CA 95838/m);
    expect(out).toMatch(/^ {2}asked again: unchanged, answered from the cache for 0 credits \(HTTP 304\)/m);
    expect(out).toMatch(/^within 0\.5 mi: \d+ propert(y|ies); nearest: 3526 HIGH ST, SACRAMENTO, CA 95838 \(0 mi\)/m);
    expect(out).toMatch(new RegExp(`^owner ${owner}, page 1 of 2: ANN ${owner}`, 'm'));
    expect(out).toMatch(/^batch: 2 addresses would cost \d+ credits?/m);
    expect(out).toMatch(/^ {2}home: 1 record\(s\), standardized/m);
    expect(out).toMatch(/^usage: [\d,]+ calls? today/m);
  });
});
