// GET /changes (issue 38) through the real lookup app, on a database of this file's own so that the feed holds only
// the events its imports make: a re-import that changes one owner is one event naming the owners before and after;
// an unchanged re-import adds none; filters; paging by cursor (never a skip or a repeat); 1 credit per event, an
// empty page free; previews, max_credits and keyed repeats as on the other metered endpoints; bad input a 400 that
// charges nothing; an expired cursor a 400 cursor_expired.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import { ChangesResponse, ErrorResponse } from '@pra/core/contracts';
import { migrateBilling } from '@pra/account-billing/migrate';
import { grantCredits } from '@pra/account-billing/domain';
import { migrateRecords } from '@pra/ingest/migrate';
import { pruneChangeEvents } from '@pra/ingest/change-events';
import { type RollRow, TestRolls } from '../../ingest/test/change-fixtures.js';
import { useLookupApp } from './lookup-harness.js';

const url = withDatabase(inject('databaseUrl'), `pra_changes_${randomBytes(4).toString('hex')}`);
let pool: Pool;
let rolls: TestRolls;
beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 4, 'changes-test');
  await migrateRecords(pool);
  await migrateBilling(pool);
  rolls = new TestRolls(pool);
}, 60_000);
afterAll(async () => {
  rolls?.close();
  await pool?.end();
  await dropDatabase(url);
});
const api = useLookupApp(1_000_000, () => pool);

async function account(credits: number) {
  const a = await api.billing.fundedAccount(credits);
  return { ...a, headers: { authorization: `Bearer ${a.key}` } };
}
const balance = (a: { accountId: number }) => api.billing.meter.balance(a.accountId);

type Answer = ReturnType<typeof ChangesResponse.parse>;
async function changes(query: string, headers: Record<string, string> = api.auth): Promise<Answer> {
  const res = await api.app.get(`/api/v1/changes${query ? `?${query}` : ''}`, headers);
  if (res.status !== 200) throw new Error(`GET /changes?${query} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return ChangesResponse.parse(res.body);
}
/** Every event from the start (or `since`) with these filters, page by page; the last cursor. */
async function drain(filters: string, pagesize = 100, since?: string) {
  const events: Answer['changes'] = [];
  let cursor = since;
  for (let pages = 0; pages < 1000; pages++) {
    const q = [filters, `pagesize=${pagesize}`, cursor ? `since=${cursor}` : ''].filter(Boolean).join('&');
    const page = await changes(q);
    events.push(...page.changes);
    cursor = page.status.cursor;
    if (!page.status.more) return { events, cursor };
  }
  throw new Error('the feed did not end');
}

const street = (tag: string) => `${tag.toUpperCase()} ${randomBytes(3).toString('hex').toUpperCase()}`;
const rows = (book: number, s: string, owners: string[], zip = '95814'): RollRow[] =>
  owners.map((owner, i) => ({ book, page: i + 1, street: s, zip, owner }));

describe('GET /changes', () => {
  it('a re-import changing one owner is one owner event with the names before and after; an unchanged one none', async () => {
    const s = street('owner');
    await rolls.import('owners', rows(1, s, ['ANN LEE', 'BOB RAY', 'CAL ODE']));
    const start = await drain('');
    expect(start.events).toEqual([]); // a first load emits nothing

    await rolls.import('owners', rows(1, s, ['ANN LEE', 'DORA DIAZ', 'CAL ODE']));
    const a = await account(10);
    const page = await changes(`since=${start.cursor}`, a.headers);
    expect(page.changes).toHaveLength(1);
    expect(page.changes[0]).toMatchObject({
      parts: ['owner'],
      zip: '95814',
      state: 'CA',
      county: 'SACRAMENTO',
      owner: { old: ['BOB RAY'], new: ['DORA DIAZ'] },
    });
    expect(page.changes[0]!.sale).toBeUndefined();
    expect(page.status).toMatchObject({ records_returned: 1, credits_remaining: 9, truncated_by_credits: false });
    expect(page.status.more).toBe(false);
    expect(await balance(a)).toBe(9);

    // The record the event names is the record changed.
    const record = await api.get(`/api/v1/sale/history?id=${page.changes[0]!.propertyId}`);
    expect(record.body.property[0].owner.owner1.fullName).toBe('DORA DIAZ');

    await rolls.import('owners', rows(1, s, ['ANN LEE', 'DORA DIAZ', 'CAL ODE']));
    const after = await changes(`since=${page.status.cursor}`, a.headers);
    expect(after.changes).toEqual([]);
    // An empty page is free.
    expect(after.status).toMatchObject({ records_returned: 0, credits_remaining: 9 });
    expect(await balance(a)).toBe(9);
  });

  it('a poll holding its tag is a 304 only while the cursor it holds is still the answer: events it does not match move it on', async () => {
    const s = street('poll');
    await rolls.import('polls', [...rows(7, s, ['HAL ONE']), ...rows(8, s, ['IDA ONE'], '19103')]);
    const a = await account(10);
    const poll = (since: string, tag?: string) =>
      api.app.get(`/api/v1/changes?zip=19103&since=${since}`, {
        ...a.headers,
        ...(tag ? { 'if-none-match': tag } : {}),
      });
    const { cursor: start } = await drain('zip=19103');
    const first = await poll(start);
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag')!;
    expect(tag).toBeTruthy();
    // Nothing new anywhere: the same empty page, the same cursor: a free 304.
    expect((await poll(start, tag)).status).toBe(304);
    // An event elsewhere (a ZIP this feed does not match): still an empty page, but its cursor moves past that event,
    // so the tag is another and the answer a 200 carrying the new cursor (a 304 would leave the poller behind, until
    // its cursor expired with the events it kept skipping).
    await rolls.import('polls', [...rows(7, s, ['HAL TWO']), ...rows(8, s, ['IDA ONE'], '19103')]);
    const moved = await poll(start, tag);
    expect(moved.status).toBe(200);
    expect(moved.body.changes).toEqual([]);
    expect(moved.body.status.cursor).not.toBe(first.body.status.cursor);
    expect(moved.headers.get('etag')).not.toBe(tag);
    expect(await balance(a)).toBe(10);
  });

  it('filters by ZIP, county and state, owner and watch list, each cursor bound to its filters', async () => {
    const s = street('filter');
    await rolls.import('filters', [...rows(2, s, ['EVE ONE', 'FAY TWO']), ...rows(3, s, ['GUS THREE'], '19103')]);
    const { cursor: before } = await drain('');
    await rolls.import('filters', [...rows(2, s, ['EVE UNO', 'FAY DOS']), ...rows(3, s, ['GUS TRES'], '19103')]);
    const all = (await drain('', 100, before)).events;
    expect(all).toHaveLength(3);
    const [sac1, sac2, phl] = all;
    expect(phl).toMatchObject({ zip: '19103', state: 'PA', county: 'PHILADELPHIA' });

    const ids = (events: Answer['changes']) => events.map((e) => e.id);
    // Filtered feeds from the start: only this test's imports were in these places.
    expect(ids((await drain('zip=19103')).events)).toEqual([phl!.id]);
    expect(ids((await drain('county=Philadelphia%20County&state=pa')).events)).toEqual([phl!.id]);
    expect(ids((await drain(`county=${phl!.fips}&state=PA`)).events)).toEqual([phl!.id]);
    expect(ids((await drain('county=Sacramento&state=CA')).events)).toEqual(
      expect.arrayContaining([sac1!.id, sac2!.id]),
    );
    expect(ids((await drain(`ids=${sac2!.propertyId},${phl!.propertyId}`)).events)).toEqual([sac2!.id, phl!.id]);
    // An owner's feed: the parcel it sold (its owner before) and the one it bought (after).
    const record = await api.get(`/api/v1/sale/history?id=${sac1!.propertyId}`);
    const newOwner = record.body.property[0].owner.owner1.id as number;
    expect(ids((await drain(`ownerId=${newOwner}`)).events)).toEqual([sac1!.id]);

    // A cursor read under one filter is refused under another (it would skip what the other matches): no charge.
    const a = await account(10);
    const zipCursor = (await changes('zip=19103', a.headers)).status.cursor;
    const other = await api.app.get(`/api/v1/changes?zip=95814&since=${zipCursor}`, a.headers);
    expect(other.status).toBe(400);
    expect(ErrorResponse.parse(other.body).status).toMatchObject({ reason: 'invalid_parameter' });
    expect(other.body.status.msg).toMatch(/since.*other filters/);
    expect(await balance(a)).toBe(9);
  });

  it('refuses bad input with a 400 naming it, charging nothing', async () => {
    const a = await account(5);
    for (const [query, reason, msg] of [
      ['county=Sacramento', 'missing_parameter', /'state'.*required with county/],
      ['zip=9581', 'invalid_parameter', /'zip'.*5-digit/],
      ['since=not-a-cursor', 'invalid_parameter', /'since'.*not a cursor/],
      ['since=%24%24', 'invalid_parameter', /'since'/],
      ['ids=12,abc', 'invalid_parameter', /'ids'.*not a property ID/],
      ['pagesize=101', 'invalid_parameter', /'pagesize'/],
      ['ownerId=x1', 'invalid_parameter', /'ownerId'/],
      ['bogus=1', 'unknown_parameter', /bogus/],
    ] as const) {
      const res = await api.app.get(`/api/v1/changes?${query}`, a.headers);
      expect(res.status, query).toBe(400);
      expect(ErrorResponse.parse(res.body).status.reason, query).toBe(reason);
      expect(res.body.status.msg, query).toMatch(msg);
    }
    expect(await balance(a)).toBe(5);
  });

  it('a forged cursor past the largest position is a 400 naming since, not a 500, and charges nothing', async () => {
    const a = await account(5);
    const cursor = (await changes('zip=19103', a.headers)).status.cursor;
    const left = await balance(a);
    const [version, , tag] = Buffer.from(cursor, 'base64url').toString('latin1').split(':');
    for (const position of ['9999999999999999999', '9223372036854775808']) {
      const forged = Buffer.from(`${version}:${position}:${tag}`).toString('base64url');
      const res = await api.app.get(`/api/v1/changes?zip=19103&since=${forged}`, a.headers);
      expect(res.status, position).toBe(400);
      expect(ErrorResponse.parse(res.body).status.reason).toBe('invalid_parameter');
      expect(res.body.status.msg).toMatch(/since/);
    }
    expect(await balance(a)).toBe(left);
  });

  it("an empty page's tag covers its cursor: once the feed moves on elsewhere, a held tag is a free 200 with the new cursor, not a 304 that keeps the client behind", async () => {
    const s = street('tagged');
    await rolls.import('tagged', rows(7, s, ['MO A'], '95811'));
    const a = await account(5);
    const since = (await changes('zip=95811', a.headers)).status.cursor;
    const first = await api.app.get(`/api/v1/changes?zip=95811&since=${since}`, a.headers);
    expect(first.status).toBe(200);
    expect(first.body.changes).toEqual([]);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    // Nothing happened anywhere: the tag is current, a 304.
    const same = await api.app.get(`/api/v1/changes?zip=95811&since=${since}`, { ...a.headers, 'if-none-match': etag });
    expect(same.status).toBe(304);
    // Another ZIP changes: still nothing for this filter, but the feed's head moved, and with it the cursor an answer
    // gives (a 304 would leave the client at its old cursor until the retention period expires it).
    await rolls.import(
      'tagged',
      rows(7, s, ['MO B'], '95811').map((r) => ({ ...r, zip: '95812' })),
    );
    await rolls.import(
      'tagged',
      rows(7, s, ['MO C'], '95811').map((r) => ({ ...r, zip: '95812' })),
    );
    const moved = await api.app.get(`/api/v1/changes?zip=95811&since=${since}`, {
      ...a.headers,
      'if-none-match': etag,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.changes).toEqual([]);
    expect(moved.body.status.cursor).not.toBe(first.body.status.cursor);
    expect(await balance(a)).toBe(5);
  });

  it('pages by cursor without a skip or a repeat, billing each event once; credits cut a page short', async () => {
    const s = street('pages');
    const owners = Array.from({ length: 7 }, (_, i) => `PAT NUMBER${i}`);
    await rolls.import('pages', rows(4, s, owners));
    const { cursor: before } = await drain('');
    await rolls.import(
      'pages',
      rows(
        4,
        s,
        owners.map((o) => `${o} JR`),
      ),
    );
    const expected = (await drain('', 100, before)).events.map((e) => e.id);
    expect(expected).toHaveLength(7);

    // Pages of 3 with 5 credits: 3, then 2 of 3 (truncated by credits), then, credits granted, the 2 left.
    const a = await account(5);
    const got: string[] = [];
    const p1 = await changes(`pagesize=3&since=${before}`, a.headers);
    expect(p1.status).toMatchObject({ records_returned: 3, more: true, truncated_by_credits: false });
    const p2 = await changes(`pagesize=3&since=${p1.status.cursor}`, a.headers);
    expect(p2.status).toMatchObject({
      records_returned: 2,
      truncated_by_credits: true,
      more: true,
      credits_remaining: 0,
    });
    const broke = await api.app.get(`/api/v1/changes?pagesize=3&since=${p2.status.cursor}`, a.headers);
    expect(broke.status).toBe(402);
    await grantCredits(api.billing.deps, a.accountId, { amount: 10 });
    const p3 = await changes(`pagesize=3&since=${p2.status.cursor}`, a.headers);
    expect(p3.status).toMatchObject({ records_returned: 2, more: false });
    for (const p of [p1, p2, p3]) got.push(...p.changes.map((e) => e.id));
    expect(got).toEqual(expected);
    expect(await balance(a)).toBe(8);
  });

  it('previews cost nothing and keep the cursor; max_credits refuses a dearer page; a keyed repeat is charged once', async () => {
    const s = street('meter');
    await rolls.import('meter', rows(5, s, ['HAL A', 'HAL B', 'HAL C', 'HAL D']));
    const { cursor: before } = await drain('');
    await rolls.import('meter', rows(5, s, ['IDA A', 'IDA B', 'IDA C', 'IDA D']));
    const a = await account(100);
    const preview = await changes(`since=${before}&preview=true`, a.headers);
    expect(preview.changes).toEqual([]);
    expect(preview.status).toMatchObject({ credits_required: 4, records_returned: 0 });
    expect(preview.status.cursor).toBe(before);
    const capped = await api.app.get(`/api/v1/changes?since=${before}&max_credits=3`, a.headers);
    expect(capped.status).toBe(402);
    expect(capped.body.status.reason).toBe('over_max_credits');
    expect(await balance(a)).toBe(100);

    const keyed = { ...a.headers, 'idempotency-key': `feed-${randomBytes(8).toString('hex')}` };
    const first = await changes(`since=${before}`, keyed);
    expect(first.changes).toHaveLength(4);
    const again = await changes(`since=${before}`, keyed);
    expect(again.changes).toEqual(first.changes);
    expect(again.status.cursor).toBe(first.status.cursor);
    expect(await balance(a)).toBe(96);
  });

  it('an expired cursor is a 400 cursor_expired saying what to do; the feed then starts at the oldest kept', async () => {
    const s = street('prune');
    await rolls.import('prune', rows(6, s, ['JO A', 'JO B']));
    const { cursor: before } = await drain('');
    await rolls.import('prune', rows(6, s, ['KAY A', 'KAY B']));
    expect((await drain('', 100, before)).events).toHaveLength(2);
    // Everything written so far is past the retention period 31 days from now.
    const pruned = await pruneChangeEvents(pool, { now: new Date(Date.now() + 31 * 86_400_000) });
    expect(pruned).toBeGreaterThanOrEqual(2);
    const { rows: left } = await pool.query('SELECT count(*)::int AS n FROM records.change_events');
    expect(left[0].n).toBe(0);

    const a = await account(5);
    const expired = await api.app.get(`/api/v1/changes?since=${before}`, a.headers);
    expect(expired.status).toBe(400);
    expect(ErrorResponse.parse(expired.body).status.reason).toBe('cursor_expired');
    expect(expired.body.status.msg).toMatch(/expired.*30-day.*without `since`/);
    expect(await balance(a)).toBe(5);

    await rolls.import('prune', rows(6, s, ['LEE A', 'KAY B']));
    const fresh = await changes('', a.headers);
    expect(fresh.changes).toMatchObject([{ owner: { old: ['KAY A'], new: ['LEE A'] } }]);
  });
});
