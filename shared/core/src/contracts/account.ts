// Usage (SPEC 2.4), health (2.5) and plans (2.6) responses.
import { z } from './zod.js';
import { TIER_NAMES } from '../tiers/index.js';

export const UsageResponse = z
  .object({
    account: z.object({ email: z.string(), name: z.string(), tier: z.enum(TIER_NAMES) }),
    calls: z.object({
      today: z.number().int(),
      total: z.number().int(),
      last_used: z.string().datetime().nullable(),
    }),
    credits: z.object({
      balance: z.number().int(),
      purchased: z.number().int(),
      used: z.number().int(),
      expires: z.string().datetime().nullable(),
    }),
    daily_usage: z.array(
      z.object({
        day: z.string().openapi({ format: 'date' }),
        calls: z.number().int(),
        credits_used: z.number().int(),
      }),
    ),
    webhooks: z
      .object({
        active: z.number().int().openapi({ description: 'Webhooks events are sent to' }),
        disabled: z
          .array(
            z.object({
              id: z.string(),
              url: z.string(),
              reason: z.string().nullable(),
              disabledAt: z.string().datetime(),
            }),
          )
          .openapi({
            description:
              'Webhooks disabled after repeated failed deliveries, with why: no events are sent to them until they ' +
              'are enabled again (POST /webhooks/{id}/enable)',
          }),
      })
      .openapi({ description: "The account's webhooks (GET /webhooks lists them)" }),
  })
  .openapi('UsageResponse');
export type UsageResponse = z.infer<typeof UsageResponse>;

export const HealthResponse = z
  .object({
    status: z.enum(['ok', 'degraded']).openapi({ description: '`degraded` when the database cannot be reached' }),
    db: z.enum(['connected', 'disconnected']),
    records: z.number().int(),
    version: z.string().openapi({ example: '2.0.0' }),
  })
  .openapi('HealthResponse');
export type HealthResponse = z.infer<typeof HealthResponse>;

export const Plan = z
  .object({
    plan: z.string(),
    name: z.string(),
    records: z.number().int().nullable().openapi({
      description: 'Records per period; null for a custom plan (`custom: true`), whose volume is agreed with sales',
    }),
    price: z.string(),
    per_record: z.string(),
    valid_days: z.number().int(),
    custom: z.boolean().openapi({
      description:
        'True for a plan agreed with sales (Enterprise): `records` is null, `price` and `per_record` are words, not amounts',
    }),
  })
  .openapi('Plan');
export type Plan = z.infer<typeof Plan>;

export const PlansResponse = z
  .object({
    plans: z.array(Plan),
    marketplace_plans: z.array(Plan),
    purchase_url: z.string().url(),
  })
  .openapi('PlansResponse');
export type PlansResponse = z.infer<typeof PlansResponse>;
