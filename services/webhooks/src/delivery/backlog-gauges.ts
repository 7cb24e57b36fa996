// What /metrics says of webhook deliveries, read from PostgreSQL when scraped: events owed to active endpoints, the
// age of the oldest, change events the dispatcher has not matched yet and how long its cursor has not moved,
// endpoints disabled. The worker registers them (engine.ts); the alert rules on them are in
// charts/property-api/files/alerts.rules.yaml.
import type { Pool, Queryable } from '@pra/platform';
import { observeGauges } from '@pra/platform/telemetry';

/** Registers the gauges; returns the function that stops observing. */
export function observeWebhookBacklog(pool: Pool): () => void {
  return observeGauges(
    [
      {
        name: 'pra.webhooks.owed',
        description: 'Events owed to active endpoints (queued or retrying; not those parked for a disabled one)',
        unit: '{event}',
      },
      {
        name: 'pra.webhooks.owed.oldest',
        description: 'Age of the oldest event owed to an active endpoint',
        unit: 's',
      },
      {
        name: 'pra.webhooks.dispatch.lag',
        description: 'Change events committed that the dispatcher has not matched yet',
        unit: '{event}',
      },
      {
        name: 'pra.webhooks.dispatch.idle',
        description: "Seconds since the dispatcher's cursor last moved (it moves whenever there are events to match)",
        unit: 's',
      },
      { name: 'pra.webhooks.disabled', description: 'Endpoints disabled after repeated failure', unit: '{endpoint}' },
    ],
    () => readWebhookBacklog(pool),
  );
}

/** The gauges' values, read from PostgreSQL once a scrape. */
export async function readWebhookBacklog(pool: Queryable): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ owed: number; oldest: number; lag: number; idle: number; disabled: number }>(
    `SELECT (SELECT count(*) FROM webhooks.outbox o
               JOIN webhooks.endpoints e ON e.id = o.webhook_id AND e.status = 'active')::int AS owed,
            coalesce((SELECT extract(epoch FROM now() - min(o.created_at)) FROM webhooks.outbox o
                       JOIN webhooks.endpoints e ON e.id = o.webhook_id AND e.status = 'active'), 0)::float8 AS oldest,
            greatest(coalesce((SELECT max(position) FROM records.change_events), 0)
                     - (SELECT position FROM webhooks.dispatch_state), 0)::int AS lag,
            -- Since the cursor last moved; a cursor that never moved: since the oldest event it has not matched.
            coalesce((SELECT extract(epoch FROM now() - coalesce(d.dispatched_at,
                        (SELECT min(c.changed_at) FROM records.change_events c WHERE c.position > d.position)))
                        FROM webhooks.dispatch_state d), 0)::float8 AS idle,
            (SELECT count(*) FROM webhooks.endpoints WHERE status = 'disabled')::int AS disabled`,
  );
  const r = rows[0]!;
  return {
    'pra.webhooks.owed': r.owed,
    'pra.webhooks.owed.oldest': r.oldest,
    'pra.webhooks.dispatch.lag': r.lag,
    'pra.webhooks.dispatch.idle': r.idle,
    'pra.webhooks.disabled': r.disabled,
  };
}
