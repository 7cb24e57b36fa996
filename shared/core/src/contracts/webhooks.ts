// Webhooks (issue 38): an account's endpoints for change events, as the API takes and answers them. The same schemas
// validate the requests (account-billing's routes) and describe them in the OpenAPI document and the typed client.
import { count } from '../wording.js';
import { z } from './zod.js';

/** The events an endpoint may subscribe to (the delivery engine's, @pra/webhooks: a test holds them equal). */
export const WEBHOOK_EVENTS = ['property.created', 'property.updated', 'property.removed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Every property event at once, as a request may write it: the list answers the events it stands for. */
export const ANY_PROPERTY_CHANGE = 'property.changed';

/** The most endpoints one account may have (a 409 past it: delete one first). */
export const WEBHOOKS_PER_ACCOUNT_MAX = 25;
/** Test events (POST /webhooks/{id}/test) owed to one webhook at once: each is a row and a delivery until sent. */
export const WEBHOOK_TESTS_PENDING_MAX = 10;
/** The most property ids one `ids` filter names. */
export const WEBHOOK_FILTER_IDS_MAX = 1_000;
/** The longest URL taken (browsers and proxies commonly stop near here too). */
export const WEBHOOK_URL_MAX = 2_048;
/** The largest POST /webhooks body: 1,000 ids of 15 digits with a long URL fit, with room. */
export const WEBHOOK_BODY_MAX_BYTES = 32 * 1024;
/** The longest the secret a rotation replaces keeps signing deliveries beside the new one (a day). */
export const WEBHOOK_SECRET_OVERLAP_MAX_SECONDS = 86_400;
export const DELIVERIES_PAGE_SIZE_DEFAULT = 25;
export const DELIVERIES_PAGE_SIZE_MAX = 100;

/** A webhook's id in a path (`/webhooks/{id}`). */
export const WebhookIdParams = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a webhook id, as `webhook.id` of POST /webhooks answers')
    .openapi({ description: 'The webhook id (`webhook.id`)', example: 'wh_5f0c3a9e1b7d2c4e6a8f0b1d', maxLength: 64 }),
});
export type WebhookIdParams = z.infer<typeof WebhookIdParams>;

const digits15 = (what: string) =>
  z
    .number({ error: `must be ${what} (an integer)` })
    .int(`must be ${what} (an integer)`)
    .min(1, `must be ${what} (1 or more)`)
    .max(999_999_999_999_999, `must be ${what} (at most 15 digits)`)
    .openapi({ format: 'int64' });

/**
 * Which changes an endpoint hears of: exactly one of `zip`; `county` with `state`; `ids`; `ownerId`. A strict
 * object rather than a union, so that a refusal names the field that is wrong, not four alternatives.
 */
export const WebhookFilter = z
  .strictObject({
    zip: z
      .string()
      .regex(/^\d{5}$/, 'must be a 5-digit ZIP code')
      .optional()
      .openapi({ description: 'Properties in this 5-digit ZIP', example: '95838' }),
    county: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(100, 'must be at most 100 characters')
      .optional()
      .openapi({
        description: 'Properties in this county, by name or 5-digit FIPS code (with `state`)',
        example: 'Sacramento',
      }),
    state: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be a two-letter state code')
      .transform((s) => s.toUpperCase())
      .optional()
      .openapi({ description: "The county's state, two letters (with `county`)", example: 'CA' }),
    ids: z
      .array(digits15('a property ID'))
      .min(1, 'must name at least 1 property ID')
      .max(WEBHOOK_FILTER_IDS_MAX, `must name at most ${count(WEBHOOK_FILTER_IDS_MAX)} property IDs`)
      .optional()
      .openapi({ description: `These properties (\`identifier.Id\`), 1 to ${count(WEBHOOK_FILTER_IDS_MAX)}` }),
    ownerId: digits15('an owner ID')
      .optional()
      .openapi({ description: "One owner entity's properties (`owner.owner1.id` of a record)", example: 48213 }),
  })
  .superRefine((f, ctx) => {
    const kinds = [
      f.zip !== undefined && 'zip',
      (f.county !== undefined || f.state !== undefined) && 'county+state',
      f.ids !== undefined && 'ids',
      f.ownerId !== undefined && 'ownerId',
    ].filter((k): k is string => k !== false);
    if (kinds.length === 0) {
      ctx.addIssue({ code: 'custom', path: [], message: 'must give one of zip, county and state, ids, ownerId' });
    } else if (kinds.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `must give only one of zip, county and state, ids, ownerId (given: ${kinds.join(', ')})`,
      });
    } else if (kinds[0] === 'county+state' && (f.county === undefined || f.state === undefined)) {
      const missing = f.county === undefined ? 'county' : 'state';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'is required: county and state go together' });
    }
  })
  .openapi('WebhookFilter', {
    description: 'Exactly one of: `zip`; `county` and `state` (both); `ids`; `ownerId`. Any other field is refused.',
  });
export type WebhookFilter = z.infer<typeof WebhookFilter>;

const KNOWN_EVENTS = [...WEBHOOK_EVENTS, ANY_PROPERTY_CHANGE].join(', ');

export const CreateWebhookRequest = z
  .strictObject({
    url: z
      .string({ error: 'is required: the https URL events are sent to' })
      .max(WEBHOOK_URL_MAX, `must be at most ${count(WEBHOOK_URL_MAX)} characters`)
      .openapi({
        description:
          'Where events are POSTed: an https URL (http only on a development machine, to a loopback address)',
        example: 'https://hooks.example.com/property-records',
      }),
    events: z
      .array(z.enum([...WEBHOOK_EVENTS, ANY_PROPERTY_CHANGE], { error: `must be one of ${KNOWN_EVENTS}` }), {
        error: `is required: a list of events (${KNOWN_EVENTS})`,
      })
      .min(1, 'must name at least one event')
      .max(WEBHOOK_EVENTS.length + 1, `must name each event once (known: ${KNOWN_EVENTS})`)
      .refine((e) => new Set(e).size === e.length, 'must name each event once')
      .transform((e) => WEBHOOK_EVENTS.filter((x) => e.includes(x) || e.includes(ANY_PROPERTY_CHANGE)))
      .openapi({
        description: `The events to send, each once; \`${ANY_PROPERTY_CHANGE}\` stands for all three`,
        example: [ANY_PROPERTY_CHANGE],
      }),
    filter: WebhookFilter,
  })
  .openapi('CreateWebhookRequest');
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

export const Webhook = z
  .object({
    id: z.string().openapi({ example: 'wh_5f0c3a9e1b7d2c4e6a8f0b1d' }),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    filter: WebhookFilter,
    status: z.enum(['active', 'disabled']).openapi({
      description: '`disabled` after repeated failed deliveries (see `disabledReason`); no events are sent to it',
    }),
    disabledReason: z.string().nullable().openapi({ description: 'Why it was disabled; null while active' }),
    disabledAt: z.string().datetime().nullable(),
    consecutiveFailures: z
      .number()
      .int()
      .openapi({ description: 'Failed attempts since the last delivered one (0 after a success)' }),
    lastDeliveredAt: z.string().datetime().nullable().openapi({ description: 'The last delivery it acknowledged' }),
    pendingEvents: z
      .number()
      .int()
      .openapi({ description: 'Events owed to it now: queued, being retried, or held while it is disabled' }),
    createdAt: z.string().datetime(),
    previousSecretExpiresAt: z
      .string()
      .datetime()
      .nullable()
      .openapi({
        description:
          'After a secret rotation: until when the replaced secret still signs each delivery beside the new one; null ' +
          'when only the current secret signs',
      }),
  })
  .openapi('Webhook');
export type Webhook = z.infer<typeof Webhook>;

export const CreatedWebhook = Webhook.extend({
  secret: z.string().openapi({
    description:
      'The signing secret (`whsec_` and base64), shown this once: keep it to verify the `webhook-signature` header ' +
      'of each delivery (the Standard Webhooks scheme). No later answer shows it.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  }),
}).openapi('CreatedWebhook');

export const CreateWebhookResponse = z.object({ webhook: CreatedWebhook }).openapi('CreateWebhookResponse');
export type CreateWebhookResponse = z.infer<typeof CreateWebhookResponse>;

export const RotateWebhookSecretQuery = z.strictObject({
  overlap_seconds: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(0, 'must be at least 0')
    .max(WEBHOOK_SECRET_OVERLAP_MAX_SECONDS, `must be at most ${WEBHOOK_SECRET_OVERLAP_MAX_SECONDS}`)
    .default(WEBHOOK_SECRET_OVERLAP_MAX_SECONDS)
    .openapi({
      type: 'integer',
      minimum: 0,
      maximum: WEBHOOK_SECRET_OVERLAP_MAX_SECONDS,
      default: WEBHOOK_SECRET_OVERLAP_MAX_SECONDS,
      description:
        'How long the replaced secret keeps signing deliveries beside the new one, in seconds: time to move the ' +
        'receiver to the new secret. 0 ends it at once (a secret that leaked).',
    }),
});
export type RotateWebhookSecretQuery = z.infer<typeof RotateWebhookSecretQuery>;

export const RotateWebhookSecretResponse = z.object({ webhook: CreatedWebhook }).openapi('RotateWebhookSecretResponse');
export type RotateWebhookSecretResponse = z.infer<typeof RotateWebhookSecretResponse>;

export const WebhookResponse = z.object({ webhook: Webhook }).openapi('WebhookResponse');
export type WebhookResponse = z.infer<typeof WebhookResponse>;

export const WebhookListResponse = z
  .object({
    webhooks: z.array(Webhook).openapi({ description: "The account's webhooks, oldest first" }),
    limit: z.number().int().openapi({ description: 'The most webhooks the account may have' }),
  })
  .openapi('WebhookListResponse');
export type WebhookListResponse = z.infer<typeof WebhookListResponse>;

export const DeliveriesQuery = z.strictObject({
  pagesize: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(DELIVERIES_PAGE_SIZE_MAX, `must be at most ${DELIVERIES_PAGE_SIZE_MAX}`)
    .default(DELIVERIES_PAGE_SIZE_DEFAULT)
    .openapi({
      type: 'integer',
      minimum: 1,
      maximum: DELIVERIES_PAGE_SIZE_MAX,
      default: DELIVERIES_PAGE_SIZE_DEFAULT,
      description: 'Attempts per page',
    }),
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'must be the `nextCursor` of a previous page')
    .optional()
    .openapi({ description: 'Where the next page starts: `nextCursor` of the page before', maxLength: 15 }),
});
export type DeliveriesQuery = z.infer<typeof DeliveriesQuery>;

export const DeliveryAttempt = z
  .object({
    eventId: z.string().openapi({ description: 'The event delivered (its `webhook-id` header)' }),
    event: z
      .string()
      .openapi({ description: 'Its type: a property event, or `webhook.test`', example: 'property.updated' }),
    attempt: z.number().int().openapi({ description: '1 for the first try, then each retry' }),
    at: z.string().datetime().openapi({ description: 'When the attempt was made' }),
    status: z.number().int().nullable().openapi({ description: "The endpoint's HTTP status; null when none came" }),
    error: z
      .string()
      .nullable()
      .openapi({ description: 'Why it failed, in words (a time-out, a refused connection ...); null when delivered' }),
    latencyMs: z.number().int().openapi({ description: 'Milliseconds until the answer or the failure' }),
    outcome: z.enum(['delivered', 'failed', 'dead_letter']).openapi({
      description:
        '`delivered`: a 2xx came; `failed`: retried at `nextAttemptAt`; `dead_letter`: the last attempt failed, the ' +
        'event is given up for this endpoint',
    }),
    nextAttemptAt: z.string().datetime().nullable().openapi({ description: 'When a failed attempt is tried again' }),
  })
  .openapi('DeliveryAttempt');
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const DeliveriesResponse = z
  .object({
    deliveries: z.array(DeliveryAttempt).openapi({ description: 'Attempts, newest first' }),
    nextCursor: z.string().nullable().openapi({
      description:
        'Pass as `cursor` for older attempts; null on the last page (a full page may be followed by an empty one)',
    }),
  })
  .openapi('DeliveriesResponse');
export type DeliveriesResponse = z.infer<typeof DeliveriesResponse>;

export const WebhookTestResponse = z
  .object({
    eventId: z.string().openapi({ description: "The test event's id: its attempts appear under /deliveries" }),
  })
  .openapi('WebhookTestResponse');
export type WebhookTestResponse = z.infer<typeof WebhookTestResponse>;
