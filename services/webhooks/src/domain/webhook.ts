// What a webhook is: the event types it can receive, the filter that picks records, the ids, and the payload a
// change event becomes. Pure: no I/O. The HTTP routes validate request bodies with these schemas.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { countyKey } from '@pra/core/address';
import { type ChangeEvent, publicChangeEvent } from '@pra/ingest/change-events';

/** Event types of the change feed an endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['property.created', 'property.updated', 'property.removed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The event POST /webhooks/{id}/test sends: always delivered, whatever the endpoint subscribed to. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** At most this many endpoints per account: each one multiplies every matching event's deliveries. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 25;
/** At most this many property ids in one filter. */
export const MAX_FILTER_PROPERTY_IDS = 1_000;
export const MAX_WEBHOOK_URL_LENGTH = 2_048;

export const WEBHOOK_ID_PATTERN = /^wh_[0-9a-f]{24}$/;
export const newWebhookId = () => `wh_${randomBytes(12).toString('hex')}`;

/** Which records an endpoint hears about: every field given must match (none given: every record). */
export const WebhookFilter = z
  .object({
    zip: z
      .string()
      .regex(/^\d{5}$/, 'must be a 5-digit ZIP code')
      .optional(),
    state: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter state code')
      .transform((s) => s.toUpperCase())
      .optional(),
    /** A county name or its 5-digit FIPS code; with `state`. */
    county: z.string().min(1).max(100).optional(),
    ownerId: z.number().int().positive().optional(),
    propertyIds: z.array(z.number().int().positive()).min(1).max(MAX_FILTER_PROPERTY_IDS).optional(),
  })
  .strict()
  .refine((f) => f.county === undefined || f.state !== undefined, {
    message: 'a county filter needs its state',
    path: ['county'],
  });
export type WebhookFilter = z.infer<typeof WebhookFilter>;

export const WebhookEvents = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((xs) => [...new Set(xs)]);

/** A filter as stored: a county name as the records store keys it ("Sacramento County" -> "SACRAMENTO"). */
export function storedFilter(f: WebhookFilter): WebhookFilter {
  const out: WebhookFilter = { ...f };
  if (f.county !== undefined && !/^\d{5}$/.test(f.county)) out.county = countyKey(f.county);
  if (f.propertyIds) out.propertyIds = [...new Set(f.propertyIds)].sort((a, b) => a - b);
  return out;
}

export const eventIdOf = (position: number | string) => `evt_${position}`;

/** The event type a change is delivered as: a record added, removed, or any part of it changed. */
export function eventTypeOf(e: Pick<ChangeEvent, 'parts'>): WebhookEventType {
  if (e.parts.includes('removed')) return 'property.removed';
  if (e.parts.includes('created')) return 'property.created';
  return 'property.updated';
}

/**
 * Whether an endpoint with these event types and this (stored) filter receives the event. `ownerIds`: the filter's
 * owner and the owner entities merged with it (as GET /changes follows them), resolved by the caller.
 */
export function matchesWebhook(
  w: { events: readonly string[]; filter: WebhookFilter; ownerIds?: readonly number[] },
  e: ChangeEvent,
): boolean {
  if (!w.events.includes(eventTypeOf(e))) return false;
  const f = w.filter;
  if (f.zip !== undefined && f.zip !== e.zip) return false;
  if (f.state !== undefined && f.state !== e.state) return false;
  if (f.county !== undefined && f.county !== (/^\d{5}$/.test(f.county) ? e.fips : e.countyKey)) return false;
  if (f.ownerId !== undefined) {
    const owners = w.ownerIds ?? [f.ownerId];
    if (!e.ownerIds.some((id) => owners.includes(id))) return false;
  }
  if (f.propertyIds !== undefined && !f.propertyIds.includes(e.propertyId)) return false;
  return true;
}

/**
 * The body of a delivery, in the Standard Webhooks shape: {type, timestamp, data}. `timestamp` is when the change
 * was made (the webhook-timestamp header is the attempt's); `data` is the change event exactly as GET /changes
 * gives it.
 */
export function eventPayload(e: ChangeEvent): string {
  return JSON.stringify({ type: eventTypeOf(e), timestamp: e.changedAt, data: publicChangeEvent(e) });
}

/** The body of a webhook.test event. */
export function testPayload(webhookId: string, eventId: string, at: Date): string {
  return JSON.stringify({
    type: TEST_EVENT_TYPE,
    timestamp: at.toISOString(),
    data: { eventId, webhookId, message: 'A test event sent on request: no record changed.' },
  });
}
