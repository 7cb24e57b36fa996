// The API's webhook contract (shared/core, what the OpenAPI document and the client say; the engine takes its events
// and limits from it) and the delivery engine's (@pra/webhooks, what is stored and matched) fit: every id the engine
// makes is one the path takes, and every filter the API takes is stored as one kind and shown back as it was given.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CreateWebhookRequest,
  DELIVERIES_PAGE_SIZE_MAX,
  WEBHOOK_EVENTS,
  WebhookFilter as ApiFilter,
  WebhookIdParams,
} from '@pra/core/contracts';
import { MAX_DELIVERIES_PAGE } from '@pra/webhooks/deliveries';
import { WEBHOOK_ID_PATTERN } from '@pra/webhooks/webhook';
import { apiFilter, filterToStore } from '../src/routes/webhook-views.js';

describe('the webhook contract of the API and of the delivery engine', () => {
  it('pages deliveries within what the engine reads, and makes ids the path takes', () => {
    expect(DELIVERIES_PAGE_SIZE_MAX).toBeLessThanOrEqual(MAX_DELIVERIES_PAGE);
    // Every id the engine makes is one the path takes.
    expect(WebhookIdParams.safeParse({ id: `wh_${'a'.repeat(24)}` }).success).toBe(true);
    expect(WEBHOOK_ID_PATTERN.test(`wh_${'a'.repeat(24)}`)).toBe(true);
  });

  const filters = fc.oneof(
    fc.record({ zip: fc.stringMatching(/^\d{5}$/) }),
    fc.record({
      county: fc.oneof(fc.constantFrom('Sacramento', 'Sacramento County', 'St. Louis'), fc.stringMatching(/^\d{5}$/)),
      state: fc.stringMatching(/^[A-Za-z]{2}$/),
    }),
    fc.record({ ids: fc.array(fc.integer({ min: 1, max: 999_999_999_999_999 }), { minLength: 1, maxLength: 50 }) }),
    fc.record({ ownerId: fc.integer({ min: 1, max: 999_999_999_999_999 }) }),
  );

  it('stores every filter the API takes as one the engine takes, and shows it back as the API writes it', () => {
    fc.assert(
      fc.property(filters, (given) => {
        const api = ApiFilter.parse(given);
        const stored = filterToStore(api);
        // One kind of filter stored (the engine matches every field it holds).
        expect(Object.values(stored).filter((v) => v !== undefined).length).toBe('county' in api ? 2 : 1);
        // One kind of filter in, the same kind out.
        expect(Object.keys(apiFilter(stored)).sort()).toEqual(Object.keys(api).sort());
        expect(ApiFilter.safeParse(apiFilter(stored)).success).toBe(true);
      }),
    );
  });

  it('takes property.changed for every property event, and each event alone', () => {
    const body = (events: string[]) => ({ url: 'https://h.example.com/', events, filter: { zip: '95814' } });
    expect(CreateWebhookRequest.parse(body(['property.changed'])).events).toEqual([...WEBHOOK_EVENTS]);
    expect(CreateWebhookRequest.parse(body(['property.changed', 'property.removed'])).events).toEqual([
      ...WEBHOOK_EVENTS,
    ]);
    for (const e of WEBHOOK_EVENTS) expect(CreateWebhookRequest.parse(body([e])).events).toEqual([e]);
  });
});
