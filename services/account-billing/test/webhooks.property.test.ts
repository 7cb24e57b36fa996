// For any sequence of creations, lists and deletions by two accounts (a deletion naming any id ever made, the other
// account's, one already deleted or one never made): an account only ever sees and deletes its own webhooks, and
// its list is exactly the model's, in creation order. Through the real app on port 0, PostgreSQL and Redis.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CreateWebhookResponse, WebhookListResponse, WEBHOOKS_PER_ACCOUNT_MAX } from '@pra/core/contracts';
import { createPool, type Pool } from '@pra/platform';
import { startApp, type RunningApp } from '@pra/platform/testing';
import { createBillingApp } from '../src/app.js';
import { billingFixture, type BillingFixture } from './billing-fixtures.js';

let pool: Pool;
let f: BillingFixture;
let api: RunningApp;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}whp${randomBytes(3).toString('hex')}:`);
  api = await startApp(
    createBillingApp({ pool, auth: { development: true, keys: f.keys }, webhookUrls: { allowInsecureLocal: true } }),
  );
});
afterAll(async () => {
  await api?.close();
  await f?.close();
  await pool?.end();
});

type Step =
  | { kind: 'create'; who: 0 | 1 }
  | { kind: 'list'; who: 0 | 1 }
  | { kind: 'delete'; who: 0 | 1; pick: number };

const who = fc.constantFrom<0 | 1>(0, 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), who }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('list' as const), who }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), who, pick: fc.nat() }) },
);

const NEVER_MADE = `wh_${'f'.repeat(24)}`;

async function send(method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${api.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe('webhooks of two accounts, for any sequence of calls', () => {
  it('each account sees and deletes only its own, and its list is the model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        const accounts = [await f.fundedAccount(0), await f.fundedAccount(0)];
        /** Each account's webhooks, in creation order. */
        const model: [string[], string[]] = [[], []];
        /** Every id ever made, by either account. */
        const made: string[] = [];
        const listed = async (w: 0 | 1) => {
          const res = await send('GET', '/webhooks', accounts[w]!.key);
          expect(res.status).toBe(200);
          return WebhookListResponse.parse(res.body).webhooks.map((x) => x.id);
        };
        for (const s of steps) {
          const key = accounts[s.who]!.key;
          if (s.kind === 'create') {
            const res = await send('POST', '/webhooks', key, {
              url: `http://127.0.0.1:9/hook/${made.length}`,
              events: ['property.changed'],
              filter: { ownerId: made.length + 1 },
            });
            if (model[s.who].length >= WEBHOOKS_PER_ACCOUNT_MAX) {
              expect(res.status).toBe(409);
              continue;
            }
            expect(res.status).toBe(201);
            const id = CreateWebhookResponse.parse(res.body).webhook.id;
            model[s.who].push(id);
            made.push(id);
          } else if (s.kind === 'list') {
            expect(await listed(s.who)).toEqual(model[s.who]);
          } else {
            const candidates = [...made, NEVER_MADE];
            const id = candidates[s.pick % candidates.length]!;
            const res = await send('DELETE', `/webhooks/${id}`, key);
            const own = model[s.who].indexOf(id);
            if (own >= 0) {
              expect(res.status).toBe(204);
              model[s.who].splice(own, 1);
            } else {
              // Another account's, one already deleted, or none: the same 404, and nothing changes.
              expect(res.status).toBe(404);
              expect(res.body.status).toMatchObject({ reason: 'not_found', msg: `No webhook ${id} on this account` });
            }
          }
        }
        expect(await listed(0)).toEqual(model[0]);
        expect(await listed(1)).toEqual(model[1]);
        const { rows } = await pool.query<{ account_id: string; id: string }>(
          'SELECT account_id, id FROM webhooks.endpoints WHERE account_id = ANY($1) ORDER BY created_at, id',
          [accounts.map((a) => a.accountId)],
        );
        for (const w of [0, 1] as const) {
          expect(rows.filter((r) => Number(r.account_id) === accounts[w]!.accountId).map((r) => r.id)).toEqual(
            model[w],
          );
        }
      }),
      { numRuns: 25 },
    );
  });
});
