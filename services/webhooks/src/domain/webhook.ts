// What a webhook is: the event types it can receive, the filter that picks records, the ids, and the payload a
// change event becomes. Pure: no I/O. Requests are checked by the API contract's schemas (@pra/core/contracts).
import { randomBytes } from 'node:crypto';
import { countyKey } from '@pra/core/address';
import type { WebhookEvent } from '@pra/core/contracts';
import { type ChangeEvent, publicChangeEvent } from '@pra/ingest/change-events';

/**
 * Event types of the change feed an endpoint can subscribe to, and the limits of an endpoint (how many an account
 * has, how many ids a filter names, how long a URL is): the API contract's (@pra/core/contracts), which the routes
 * check a request with before anything here sees it.
 */
export {
  WEBHOOK_EVENTS,
  WEBHOOK_FILTER_IDS_MAX,
  WEBHOOK_URL_MAX,
  WEBHOOKS_PER_ACCOUNT_MAX,
} from '@pra/core/contracts';
export type WebhookEventType = WebhookEvent;
/** The event POST /webhooks/{id}/test sends: always delivered, whatever the endpoint subscribed to. */
export const TEST_EVENT_TYPE = 'webhook.test';

export const WEBHOOK_ID_PATTERN = /^wh_[0-9a-f]{24}$/;
export const newWebhookId = () => `wh_${randomBytes(12).toString('hex')}`;

/**
 * Which records an endpoint hears about, as stored and matched: every field given must match (none given: every
 * record). The API takes one kind at a time (WebhookFilter of the contracts; account-billing's webhook-views maps it).
 */
export interface WebhookFilter {
  zip?: string;
  /** Upper case; with `county`. */
  state?: string;
  /** A county name or its 5-digit FIPS code; with `state`. */
  county?: string;
  ownerId?: number;
  propertyIds?: number[];
}

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
 * What a delivery tells (issue 38, billing decision): which record changed, which parts, when and where; the event's
 * id is its /changes id. Not the old and new owner names, sale or assessment: those are what GET /changes sells at 1
 * credit an event (and a lookup at 1 credit a record). Deliveries are included in the plan, so a delivery carrying
 * them would hand out for free what the feed charges for (an account at 0 credits could watch a county's owners).
 */
export function changeNotice(e: ChangeEvent): ChangeNotice {
  const { id, propertyId, parts, changedAt, zip, state, county, fips } = publicChangeEvent(e);
  return { id, propertyId, parts, changedAt, zip, state, county, fips };
}

export type ChangeNotice = Pick<
  ReturnType<typeof publicChangeEvent>,
  'id' | 'propertyId' | 'parts' | 'changedAt' | 'zip' | 'state' | 'county' | 'fips'
>;

/**
 * The body of a delivery, in the Standard Webhooks shape: {type, timestamp, data}. `timestamp` is when the change
 * was made (the webhook-timestamp header is the attempt's); `data` is its changeNotice (the
 * /changes event without the old and new values).
 */
export function eventPayload(e: ChangeEvent): string {
  return JSON.stringify({ type: eventTypeOf(e), timestamp: e.changedAt, data: changeNotice(e) });
}

/** The body of a webhook.test event. */
export function testPayload(webhookId: string, eventId: string, at: Date): string {
  return JSON.stringify({
    type: TEST_EVENT_TYPE,
    timestamp: at.toISOString(),
    data: { eventId, webhookId, message: 'A test event sent on request: no record changed.' },
  });
}
