// /webhooks (issue 38) of account-billing, started on port 0 against the real PostgreSQL and Redis: each endpoint,
// who may call it (no key 401, another account's webhook 404 like one that never was), the messages of a body it
// refuses, the secret shown once, the limit per account, the delivery log paged, the test event queued, a disabled
// webhook told in the list and in /usage, and the calls counted like any other, never charged.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  CreateWebhookResponse,
  RotateWebhookSecretResponse,
  DeliveriesResponse,
  ErrorResponse,
  tablePathList,
  UsageResponse,
  WEBHOOK_TESTS_PENDING_MAX,
  WebhookListResponse,
  WEBHOOKS_PER_ACCOUNT_MAX,
} from '@pra/core/contracts';
import { createPool, type Pool } from '@pra/platform';
import { startApp, type RunningApp } from '@pra/platform/testing';
import { createBillingApp } from '../src/app.js';
import { CallFlusher, callBucketsWaiting } from '../src/workers/call-flusher.js';
import { billingFixture, type BillingFixture } from './billing-fixtures.js';

let pool: Pool;
let f: BillingFixture;
let api: RunningApp;
/** The same app with production's URL policy (https to public addresses only). */
let production: RunningApp;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}wh${randomBytes(3).toString('hex')}:`);
  const auth = { development: true as const, keys: f.keys };
  api = await startApp(createBillingApp({ pool, auth, calls: f.calls, webhookUrls: { allowInsecureLocal: true } }));
  production = await startApp(createBillingApp({ pool, auth }));
});
afterAll(async () => {
  await api?.close();
  await production?.close();
  await f?.close();
  await pool?.end();
});

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

async function call(
  method: string,
  path: string,
  key: string | null,
  body?: unknown,
  app: RunningApp = api,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${app.url}/api/v1${path}`, {
    method,
    headers: {
      ...headers,
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

const RECEIVER = 'http://127.0.0.1:9/hooks';
const hook = (filter: Record<string, unknown> = { zip: '95814' }, url = RECEIVER) => ({
  url,
  events: ['property.updated'],
  filter,
});

async function created(key: string, body: unknown = hook()) {
  const res = await call('POST', '/webhooks', key, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return CreateWebhookResponse.parse(res.body).webhook;
}

const listOf = async (key: string) => {
  const res = await call('GET', '/webhooks', key);
  expect(res.status).toBe(200);
  return WebhookListResponse.parse(res.body);
};

describe('POST /webhooks', () => {
  it('answers 201 with the webhook and its secret, shown this once: the list never shows it', async () => {
    const a = await f.fundedAccount(10);
    const res = await call('POST', '/webhooks', a.key, {
      url: RECEIVER,
      events: ['property.changed'],
      filter: { county: 'Sacramento County', state: 'ca' },
    });
    expect(res.status).toBe(201);
    const { webhook } = CreateWebhookResponse.parse(res.body);
    expect(webhook).toMatchObject({
      url: RECEIVER,
      // property.changed stands for every property event.
      events: ['property.created', 'property.updated', 'property.removed'],
      filter: { county: 'SACRAMENTO', state: 'CA' },
      status: 'active',
      disabledReason: null,
      consecutiveFailures: 0,
      pendingEvents: 0,
    });
    expect(webhook.id).toMatch(/^wh_[0-9a-f]{24}$/);
    // whsec_ and base64, as the Standard Webhooks libraries take it.
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(webhook.secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);

    const list = await call('GET', '/webhooks', a.key);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(webhook.secret.slice('whsec_'.length));
    expect(list.body.webhooks[0]).not.toHaveProperty('secret');
    const { secret: _shownOnce, ...rest } = webhook;
    expect(WebhookListResponse.parse(list.body)).toEqual({ webhooks: [rest], limit: WEBHOOKS_PER_ACCOUNT_MAX });
  });

  it('takes each kind of filter, and property ids as ids', async () => {
    const a = await f.fundedAccount(0);
    const byZip = await created(a.key, hook({ zip: '95838' }));
    const byIds = await created(a.key, hook({ ids: [30, 10, 20, 10] }));
    const byOwner = await created(a.key, hook({ ownerId: 48213 }));
    const byCounty = await created(a.key, hook({ county: '06067', state: 'CA' }));
    expect([byZip.filter, byIds.filter, byOwner.filter, byCounty.filter]).toEqual([
      { zip: '95838' },
      { ids: [10, 20, 30] },
      { ownerId: 48213 },
      { county: '06067', state: 'CA' },
    ]);
    expect((await listOf(a.key)).webhooks.map((w) => w.id)).toEqual([byZip.id, byIds.id, byOwner.id, byCounty.id]);
  });

  it.each<[string, unknown, RegExp]>([
    ['no url', { events: ['property.updated'], filter: { zip: '95814' } }, /^Missing field 'url': the https URL/],
    ['no events', { url: RECEIVER, filter: { zip: '95814' } }, /^Missing field 'events'/],
    ['no filter', { url: RECEIVER, events: ['property.updated'] }, /^Missing field 'filter'/],
    ['no event', { ...hook(), events: [] }, /'events': must name at least one event/],
    [
      'an unknown event',
      { ...hook(), events: ['property.deleted'] },
      /'events\[0\]': must be one of property\.created/,
    ],
    ['an event twice', { ...hook(), events: ['property.updated', 'property.updated'] }, /'events': must name each/],
    ['an empty filter', hook({}), /'filter': must give one of zip, county and state, ids, ownerId/],
    ['two filters', hook({ zip: '95814', ownerId: 1 }), /'filter': must give only one of .* \(given: zip, ownerId\)/],
    ['a short zip', hook({ zip: '9581' }), /^Invalid field 'filter\.zip': must be a 5-digit ZIP code$/],
    ['a county without its state', hook({ county: 'Sacramento' }), /^Missing field 'filter\.state': county and state/],
    ['no ids', hook({ ids: [] }), /'filter\.ids': must name at least 1 property ID/],
    ['too many ids', hook({ ids: Array.from({ length: 1001 }, (_, i) => i + 1) }), /must name at most 1,000/],
    ['an id that is not one', hook({ ids: [1, 'x'] }), /'filter\.ids\[1\]': must be a property ID/],
    ['an owner id as text', hook({ ownerId: '12' }), /'filter\.ownerId': must be an owner ID/],
    ['a field it does not take', { ...hook(), secret: 'mine' }, /^Unknown field 'secret'$/],
    ['a filter field it does not take', hook({ zip: '95814', city: 'X' }), /^Unknown field 'filter\.city'$/],
    ['a URL that is not one', hook({ zip: '95814' }, 'not a url'), /url is not an absolute URL/],
    ['another scheme', hook({ zip: '95814' }, 'ftp://127.0.0.1/x'), /url must be http:\/\/ or https:\/\//],
    ['http off this machine', hook({ zip: '95814' }, 'http://hooks.example.com/x'), /taken only for a loopback/],
    ['a private address', hook({ zip: '95814' }, 'https://10.1.2.3/x'), /private.*public addresses/],
    ['cloud metadata', hook({ zip: '95814' }, 'http://169.254.169.254/latest'), /link-local, metadata/],
    ['a URL past 2,048 characters', hook({ zip: '95814' }, `https://a.example.com/${'x'.repeat(2100)}`), /2,048/],
    ['an array', [hook()], /^The body must be a JSON object$/],
    ['not JSON', '{"url":', /^The body is not JSON/],
    ['nothing', '', /^The body is empty/],
    ['a body past 32 KB', { ...hook(), pad: 'x'.repeat(40_000) }, /more than the 32 KB allowed/],
  ])('refuses %s with a 400 naming the problem, and creates nothing', async (_what, body, message) => {
    const a = await f.fundedAccount(0);
    const res = await call('POST', '/webhooks', a.key, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(ErrorResponse.parse(res.body).status).toMatchObject({ code: 400, reason: 'invalid_body' });
    expect(res.body.status.msg).toMatch(message);
    expect((await listOf(a.key)).webhooks).toEqual([]);
  });

  it('takes only https to public addresses outside a local system', async () => {
    const a = await f.fundedAccount(0);
    for (const [url, message] of [
      ['http://127.0.0.1:8080/hooks', /^url must be https:\/\/$/],
      ['https://127.0.0.1:8443/hooks', /loopback.*public addresses/],
      ['https://localhost/hooks', /localhost is local/],
      ['https://[::ffff:10.0.0.1]/hooks', /private/],
    ] as const) {
      const res = await call('POST', '/webhooks', a.key, hook({ zip: '95814' }, url), production);
      expect(res.status, url).toBe(400);
      expect(res.body.status.msg, url).toMatch(message);
    }
    const res = await call(
      'POST',
      '/webhooks',
      a.key,
      hook({ zip: '95814' }, 'https://hooks.example.com/p'),
      production,
    );
    expect(res.status).toBe(201);
  });

  it(`holds an account to ${WEBHOOKS_PER_ACCOUNT_MAX} webhooks: one more is a 409 limit_reached`, async () => {
    const a = await f.fundedAccount(0);
    for (let i = 0; i < WEBHOOKS_PER_ACCOUNT_MAX; i++) await created(a.key, hook({ ownerId: i + 1 }));
    const over = await call('POST', '/webhooks', a.key, hook());
    expect(over.status).toBe(409);
    expect(ErrorResponse.parse(over.body).status).toMatchObject({ code: 409, reason: 'limit_reached' });
    expect(over.body.status.msg).toMatch(/at most 25 webhooks: delete one/);
    const list = await listOf(a.key);
    expect(list.webhooks).toHaveLength(WEBHOOKS_PER_ACCOUNT_MAX);
    // Another account is not held to this one's count; a deletion makes room.
    await created((await f.fundedAccount(0)).key);
    expect((await call('DELETE', `/webhooks/${list.webhooks[0]!.id}`, a.key)).status).toBe(204);
    await created(a.key);
  });
});

describe('DELETE /webhooks/{id}', () => {
  it("deletes the account's own (204, no body); another account's or an unknown one is the same 404", async () => {
    const a = await f.fundedAccount(0);
    const b = await f.fundedAccount(0);
    const mine = await created(a.key);
    const theirs = await created(b.key);

    const other = await call('DELETE', `/webhooks/${theirs.id}`, a.key);
    const unknown = await call('DELETE', `/webhooks/wh_${'0'.repeat(24)}`, a.key);
    expect(other.status).toBe(404);
    expect(ErrorResponse.parse(other.body).status.reason).toBe('not_found');
    // Nothing tells "another account's" from "none": the same message but for the id asked.
    expect(other.body.status.msg.replace(theirs.id, 'ID')).toBe(
      unknown.body.status.msg.replace(`wh_${'0'.repeat(24)}`, 'ID'),
    );
    expect((await listOf(b.key)).webhooks.map((w) => w.id)).toEqual([theirs.id]);

    const deleted = await call('DELETE', `/webhooks/${mine.id}`, a.key);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect(deleted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await listOf(a.key)).webhooks).toEqual([]);
    expect((await call('DELETE', `/webhooks/${mine.id}`, a.key)).status).toBe(404);
  });

  it('refuses an id that cannot be one with a 400 naming it', async () => {
    const a = await f.fundedAccount(0);
    const res = await call('DELETE', `/webhooks/${'x'.repeat(65)}`, a.key);
    expect(res.status).toBe(400);
    expect(res.body.status).toMatchObject({ reason: 'invalid_parameter' });
    expect(res.body.status.msg).toMatch(/^Invalid parameter 'id': must be a webhook id/);
  });
});

describe('GET /webhooks/{id}/deliveries', () => {
  async function attempts(webhookId: string, n: number) {
    // The delivery log as the worker writes it: attempt 1 of event i failed (a 503), attempt 2 delivered.
    for (let i = 0; i < n; i++) {
      await pool.query(
        `INSERT INTO webhooks.deliveries (webhook_id, event_id, event_type, attempt, attempted_at, http_status, error,
                                         latency_ms, outcome, next_attempt_at)
         VALUES ($1, $2, 'property.updated', $3, now() - make_interval(secs => $4), $5, $6, $7, $8, $9)`,
        [
          webhookId,
          `evt_${Math.floor(i / 2) + 1}`,
          (i % 2) + 1,
          n - i,
          i % 2 === 0 ? 503 : 204,
          i % 2 === 0 ? 'HTTP 503' : null,
          10 + i,
          i % 2 === 0 ? 'failed' : 'delivered',
          i % 2 === 0 ? new Date(Date.now() + 60_000) : null,
        ],
      );
    }
  }

  it('answers the attempts newest first, paged by pagesize and cursor to the end', async () => {
    const a = await f.fundedAccount(0);
    const w = await created(a.key);
    await attempts(w.id, 7);
    const pages: DeliveriesResponse[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(
        'GET',
        `/webhooks/${w.id}/deliveries?pagesize=3${cursor ? `&cursor=${cursor}` : ''}`,
        a.key,
      );
      expect(res.status).toBe(200);
      const page = DeliveriesResponse.parse(res.body);
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor !== null && pages.length < 10);
    expect(pages.map((p) => p.deliveries.length)).toEqual([3, 3, 1]);
    const all = pages.flatMap((p) => p.deliveries);
    expect(all.map((d) => `${d.eventId}#${d.attempt}`)).toEqual([
      'evt_4#1',
      'evt_3#2',
      'evt_3#1',
      'evt_2#2',
      'evt_2#1',
      'evt_1#2',
      'evt_1#1',
    ]);
    expect(all[0]).toMatchObject({ event: 'property.updated', status: 503, error: 'HTTP 503', outcome: 'failed' });
    expect(all[0]!.nextAttemptAt).not.toBeNull();
    expect(all[1]).toMatchObject({
      status: 204,
      error: null,
      outcome: 'delivered',
      latencyMs: 15,
      nextAttemptAt: null,
    });
    const times = all.map((d) => Date.parse(d.at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    // The default page holds them all.
    expect(
      DeliveriesResponse.parse((await call('GET', `/webhooks/${w.id}/deliveries`, a.key)).body).deliveries,
    ).toHaveLength(7);
  });

  it("is a 404 for another account's webhook, and a 400 naming a bad pagesize, cursor or parameter", async () => {
    const a = await f.fundedAccount(0);
    const b = await f.fundedAccount(0);
    const theirs = await created(b.key);
    await attempts(theirs.id, 2);
    const other = await call('GET', `/webhooks/${theirs.id}/deliveries`, a.key);
    expect(other.status).toBe(404);
    expect(other.body.status.reason).toBe('not_found');
    for (const [query, message] of [
      ['pagesize=0', /^Invalid parameter 'pagesize': must be at least 1$/],
      ['pagesize=101', /^Invalid parameter 'pagesize': must be at most 100$/],
      ['cursor=abc', /^Invalid parameter 'cursor': must be the `nextCursor` of a previous page$/],
      ['page=2', /^Unknown parameter 'page': this endpoint takes pagesize, cursor$/],
    ] as const) {
      const res = await call('GET', `/webhooks/${theirs.id}/deliveries?${query}`, b.key);
      expect(res.status, query).toBe(400);
      expect(res.body.status.msg, query).toMatch(message);
    }
  });
});

describe('POST /webhooks/{id}/test', () => {
  it("queues a webhook.test event for the webhook (202 with its id); another account's is a 404", async () => {
    const a = await f.fundedAccount(0);
    const b = await f.fundedAccount(0);
    const w = await created(a.key);
    const res = await call('POST', `/webhooks/${w.id}/test`, a.key);
    expect(res.status).toBe(202);
    expect(res.body.eventId).toMatch(/^evt_test_/);
    const { rows } = await pool.query(
      'SELECT event_type FROM webhooks.outbox WHERE webhook_id = $1 AND event_id = $2',
      [w.id, res.body.eventId],
    );
    expect(rows).toEqual([{ event_type: 'webhook.test' }]);
    expect((await listOf(a.key)).webhooks[0]!.pendingEvents).toBe(1);
    const other = await call('POST', `/webhooks/${w.id}/test`, b.key);
    expect(other.status).toBe(404);
    const { rows: after } = await pool.query('SELECT count(*)::int AS n FROM webhooks.outbox WHERE webhook_id = $1', [
      w.id,
    ]);
    expect(after[0].n).toBe(1);
  });
});

describe('POST /webhooks with an Idempotency-Key', () => {
  it('a retry makes nothing more: the same webhook and secret, replayed; concurrent ones too; another body is a 400', async () => {
    const a = await f.fundedAccount(0);
    const b = await f.fundedAccount(0);
    const keyed = (k: string, body: unknown, who = a.key) =>
      call('POST', '/webhooks', who, body, api, { 'idempotency-key': k });
    const first = await keyed('create-1', hook());
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await keyed('create-1', hook());
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.webhook).toEqual(first.body.webhook);
    // Sent five times at once: one webhook.
    const burst = await Promise.all(Array.from({ length: 5 }, () => keyed('create-2', hook({ zip: '95815' }))));
    expect(new Set(burst.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(burst.map((r) => r.body.webhook.id)).size).toBe(1);
    expect((await listOf(a.key)).webhooks).toHaveLength(2);
    // The key with another body: refused, nothing made.
    const other = await keyed('create-1', hook({ zip: '95816' }));
    expect(other.status).toBe(400);
    expect(other.body.status.reason).toBe('idempotency_key_reused');
    expect((await listOf(a.key)).webhooks).toHaveLength(2);
    // Keys are the account's own: another account's same key makes its own webhook.
    const theirs = await keyed('create-1', hook(), b.key);
    expect(theirs.status).toBe(201);
    expect(theirs.body.webhook.id).not.toBe(first.body.webhook.id);
    // Deleted, its key goes with it: the same key makes a new one.
    expect((await call('DELETE', `/webhooks/${first.body.webhook.id}`, a.key)).status).toBe(204);
    const after = await keyed('create-1', hook());
    expect(after.status).toBe(201);
    expect(after.body.webhook.id).not.toBe(first.body.webhook.id);
    // A key that cannot be one is a 400 naming the header.
    const bad = await keyed('two words', hook());
    expect(bad.status).toBe(400);
    expect(bad.body.status.msg).toMatch(/Idempotency-Key/);
  });
});

describe('POST /webhooks/{id}/rotate-secret', () => {
  it("answers a new secret once; the old one signs beside it until previousSecretExpiresAt; another account's is a 404", async () => {
    const a = await f.fundedAccount(0);
    const b = await f.fundedAccount(0);
    const w = await created(a.key);
    const res = await call('POST', `/webhooks/${w.id}/rotate-secret`, a.key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rotated = RotateWebhookSecretResponse.parse(res.body).webhook;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(w.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt!) - Date.now()).toBeGreaterThan(86_000_000);
    const listed = (await listOf(a.key)).webhooks[0]!;
    expect(listed.previousSecretExpiresAt).toBe(rotated.previousSecretExpiresAt);
    expect(JSON.stringify(listed)).not.toContain(rotated.secret.slice('whsec_'.length));
    // overlap_seconds=0: the replaced secret ends at once.
    const now = await call('POST', `/webhooks/${w.id}/rotate-secret?overlap_seconds=0`, a.key);
    expect(now.status).toBe(200);
    expect(now.body.webhook.previousSecretExpiresAt).toBeNull();
    expect((await call('POST', `/webhooks/${w.id}/rotate-secret`, b.key)).status).toBe(404);
    const bad = await call('POST', `/webhooks/${w.id}/rotate-secret?overlap_seconds=86401`, a.key);
    expect(bad.status).toBe(400);
    expect(bad.body.status.msg).toMatch(/overlap_seconds/);
  });
});

describe('POST /webhooks/{id}/test, repeated', () => {
  it(`queues at most ${WEBHOOK_TESTS_PENDING_MAX} test events per webhook at once: one more is a 409 limit_reached`, async () => {
    const a = await f.fundedAccount(0);
    // Nothing listens on port 9: the test events stay owed (and a disabled webhook parks them until enabled).
    const w = await created(a.key);
    for (let i = 0; i < WEBHOOK_TESTS_PENDING_MAX; i++)
      expect((await call('POST', `/webhooks/${w.id}/test`, a.key)).status).toBe(202);
    const over = await call('POST', `/webhooks/${w.id}/test`, a.key);
    expect(over.status).toBe(409);
    expect(ErrorResponse.parse(over.body).status).toMatchObject({ code: 409, reason: 'limit_reached' });
    expect(over.body.status.msg).toMatch(/test events/);
    expect((await listOf(a.key)).webhooks[0]!.pendingEvents).toBe(WEBHOOK_TESTS_PENDING_MAX);
  });
});

describe('a webhook disabled after repeated failures', () => {
  it('is told in the list and in /usage, and POST /webhooks/{id}/enable makes it active again', async () => {
    const a = await f.fundedAccount(5);
    const b = await f.fundedAccount(0);
    const w = await created(a.key);
    const kept = await created(a.key, hook({ zip: '95838' }));
    const reason = '16 failed attempts in a row: the last HTTP 500';
    // As the delivery engine disables it (services/webhooks: its own tests drive that through a failing receiver).
    await pool.query(
      `UPDATE webhooks.endpoints SET status = 'disabled', disabled_reason = $2, disabled_at = now(),
              consecutive_failures = 16 WHERE id = $1`,
      [w.id, reason],
    );
    const listed = (await listOf(a.key)).webhooks;
    expect(listed.map((x) => [x.id, x.status, x.disabledReason, x.consecutiveFailures])).toEqual([
      [w.id, 'disabled', reason, 16],
      [kept.id, 'active', null, 0],
    ]);
    const usage = UsageResponse.parse((await call('GET', '/usage', a.key)).body);
    expect(usage.webhooks).toEqual({
      active: 1,
      disabled: [{ id: w.id, url: RECEIVER, reason, disabledAt: listed[0]!.disabledAt }],
    });
    expect(UsageResponse.parse((await call('GET', '/usage', b.key)).body).webhooks).toEqual({
      active: 0,
      disabled: [],
    });

    expect((await call('POST', `/webhooks/${w.id}/enable`, b.key)).status).toBe(404);
    const enabled = await call('POST', `/webhooks/${w.id}/enable`, a.key);
    expect(enabled.status).toBe(200);
    expect(enabled.body.webhook).toMatchObject({
      id: w.id,
      status: 'active',
      disabledReason: null,
      consecutiveFailures: 0,
    });
    expect(enabled.body.webhook).not.toHaveProperty('secret');
    expect(UsageResponse.parse((await call('GET', '/usage', a.key)).body).webhooks).toEqual({
      active: 2,
      disabled: [],
    });
  });
});

describe('every webhook endpoint', () => {
  const routes = tablePathList()
    .filter((p) => p.template.startsWith('/api/v1/webhooks'))
    .flatMap((p) =>
      p.methods.map((m) => [m, p.template.slice('/api/v1'.length).replace('{id}', `wh_${'1'.repeat(24)}`)] as const),
    );

  it('needs a key: 401 without one or with an unknown one', async () => {
    expect(routes).toHaveLength(7);
    for (const [method, path] of routes) {
      for (const key of [null, 'pra_live_unknownunknownunknown']) {
        const res = await call(method, path, key, method === 'POST' && path === '/webhooks' ? hook() : undefined);
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(ErrorResponse.parse(res.body).status.reason).toBe('unauthorized');
      }
    }
  });

  it('answers another method 405 naming the ones the path takes', async () => {
    const a = await f.fundedAccount(0);
    for (const [method, path, allow] of [
      ['PUT', '/webhooks', 'GET, POST'],
      ['DELETE', '/webhooks', 'GET, POST'],
      ['GET', `/webhooks/wh_${'1'.repeat(24)}`, 'DELETE'],
      ['POST', `/webhooks/wh_${'1'.repeat(24)}/deliveries`, 'GET'],
      ['GET', `/webhooks/wh_${'1'.repeat(24)}/test`, 'POST'],
    ] as const) {
      const res = await call(method, path, a.key);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), path).toBe(allow);
      expect(res.body.status.msg).toBe(`Method ${method} not allowed here: use ${allow.replace(', ', ' or ')}`);
    }
  });

  it('counts each call in /usage, as the daily quota counts it, and never charges', async () => {
    const a = await f.fundedAccount(7);
    const w = await created(a.key);
    await call('GET', '/webhooks', a.key);
    await call('GET', `/webhooks/${w.id}/deliveries`, a.key);
    await call('POST', `/webhooks/${w.id}/test`, a.key);
    await call('DELETE', `/webhooks/${w.id}`, a.key);
    await call('POST', '/webhooks', a.key, hook({ zip: 'x' })); // a 400 counts too, as the quota counted it
    await call('GET', '/usage', a.key); // /usage counts nowhere
    const flusher = new CallFlusher({ pool, redis: f.redis, layout: f.layout, log: () => {}, leaseMs: 0 });
    for (let i = 0; i < 50 && (await callBucketsWaiting(f.redis, f.layout)) > 0; i++) await flusher.flushOnce();
    const { rows } = await pool.query(
      'SELECT endpoint, sum(calls)::int AS calls FROM billing.call_counts WHERE account_id = $1 GROUP BY endpoint ORDER BY endpoint',
      [a.accountId],
    );
    expect(rows).toEqual([
      { endpoint: '/webhooks', calls: 3 },
      { endpoint: '/webhooks/{id}', calls: 1 },
      { endpoint: '/webhooks/{id}/deliveries', calls: 1 },
      { endpoint: '/webhooks/{id}/test', calls: 1 },
    ]);
    const usage = UsageResponse.parse((await call('GET', '/usage', a.key)).body);
    expect(usage.calls.today).toBe(6);
    expect(usage.credits).toMatchObject({ balance: 7, used: 0 });
    expect(await f.meter.balance(a.accountId)).toBe(7);
  });
});
