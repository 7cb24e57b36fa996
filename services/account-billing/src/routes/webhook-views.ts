// The webhooks as the API writes them, from what @pra/webhooks stores: a filter's `ids` are its `propertyIds`, a
// delivery's `at` and `status` its `attemptedAt` and `httpStatus`, a page of attempts ends in the cursor of the next.
import type {
  DeliveriesResponse,
  DeliveryAttempt,
  Webhook as WebhookView,
  WebhookFilter as ApiFilter,
} from '@pra/core/contracts';
import type { Delivery } from '@pra/webhooks/deliveries';
import type { Webhook } from '@pra/webhooks/registry';
import type { WebhookFilter as StoredFilter } from '@pra/webhooks/webhook';

/** A request's filter (one kind, checked by CreateWebhookRequest) as the registry stores it. */
export function filterToStore(f: ApiFilter): StoredFilter {
  if (f.ids !== undefined) return { propertyIds: f.ids };
  if (f.ownerId !== undefined) return { ownerId: f.ownerId };
  if (f.zip !== undefined) return { zip: f.zip };
  return { county: f.county, state: f.state };
}

/** A stored filter as the API shows it (the county as the records key it: `SACRAMENTO` for "Sacramento County"). */
export function apiFilter(f: StoredFilter): ApiFilter {
  const { propertyIds, ...rest } = f;
  return propertyIds === undefined ? rest : { ...rest, ids: propertyIds };
}

export const webhookView = (w: Webhook): WebhookView => ({
  id: w.id,
  url: w.url,
  events: w.events,
  filter: apiFilter(w.filter),
  status: w.status,
  disabledReason: w.disabledReason,
  disabledAt: w.disabledAt,
  consecutiveFailures: w.consecutiveFailures,
  lastDeliveredAt: w.lastDeliveredAt,
  pendingEvents: w.pendingEvents,
  createdAt: w.createdAt,
  previousSecretExpiresAt: w.previousSecretExpiresAt,
});

const attemptView = (d: Delivery): DeliveryAttempt => ({
  eventId: d.eventId,
  event: d.eventType,
  attempt: d.attempt,
  at: d.attemptedAt,
  status: d.httpStatus,
  error: d.error,
  latencyMs: d.latencyMs,
  outcome: d.outcome,
  nextAttemptAt: d.nextAttemptAt,
});

/** A page of attempts, newest first; a full page points at the older ones (by the last attempt's id). */
export const deliveriesView = (page: readonly Delivery[], pagesize: number): DeliveriesResponse => ({
  deliveries: page.map(attemptView),
  nextCursor: page.length === pagesize ? String(page[page.length - 1]!.id) : null,
});
