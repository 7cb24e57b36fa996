// The API's webhook contract (shared/core, what the OpenAPI document and the client say) and the delivery engine's
// (@pra/webhooks, what is stored and matched) say the same: the events, the limits, and every filter the API takes
// is one the engine takes, in the shape it stores.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CreateWebhookRequest,
  DELIVERIES_PAGE_SIZE_MAX,
  WEBHOOK_EVENTS,
  WEBHOOK_FILTER_IDS_MAX,
  WEBHOOK_URL_MAX,
  WebhookFilter as ApiFilter,
  WEBHOOKS_PER_ACCOUNT_MAX,
} from '@pra/core/contracts';
import { MAX_DELIVERIES_PAGE } from '@pra/webhooks/deliveries';
import {
  MAX_FILTER_PROPERTY_IDS,
  MAX_WEBHOOK_URL_LENGTH,
  MAX_WEBHOOKS_PER_ACCOUNT,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_ID_PATTERN,
  WebhookFilter as StoredFilter,
} from '@pra/webhooks/webhook';
import { WebhookIdParams } from '@pra/core/contracts';
import { apiFilter, storedFilter } from '../src/routes/webhook-views.js';

describe('the webhook contract of the API and of the delivery engine', () => {
  it('names the same events and limits', () => {
    expect(WEBHOOK_EVENTS).toEqual(WEBHOOK_EVENT_TYPES);
    expect(WEBHOOKS_PER_ACCOUNT_MAX).toBe(MAX_WEBHOOKS_PER_ACCOUNT);
    expect(WEBHOOK_FILTER_IDS_MAX).toBe(MAX_FILTER_PROPERTY_IDS);
    expect(WEBHOOK_URL_MAX).toBe(MAX_WEBHOOK_URL_LENGTH);
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
        const stored = storedFilter(api);
        expect(StoredFilter.safeParse(stored).success).toBe(true);
        // One kind of filter in, the same kind out.
        expect(Object.keys(apiFilter(stored)).sort()).toEqual(Object.keys(api).sort());
        expect(ApiFilter.safeParse(apiFilter(stored)).success).toBe(true);
      }),
    );
  });

  it('takes property.changed for every property event, and each event alone', () => {
    const body = (events: string[]) => ({ url: 'https://h.example.com/', events, filter: { zip: '95814' } });
    expect(CreateWebhookRequest.parse(body(['property.changed'])).events).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(CreateWebhookRequest.parse(body(['property.changed', 'property.removed'])).events).toEqual([
      ...WEBHOOK_EVENT_TYPES,
    ]);
    for (const e of WEBHOOK_EVENT_TYPES) expect(CreateWebhookRequest.parse(body([e])).events).toEqual([e]);
  });
});
