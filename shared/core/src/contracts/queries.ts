// Query parameters of every endpoint (SPEC 4). The same schemas validate requests and describe them in OpenAPI.
import { z } from './zod.js';

/**
 * The longest value (in characters, after surrounding spaces are trimmed) each text parameter takes: a value past
 * it is a 400 naming the parameter and its maximum, before any work is done on it. The longest values in the real
 * county files we test with are far below (addresses 32 characters, cities 15).
 */
export const TEXT_MAX = {
  address: 200,
  city: 64,
  number: 16,
  lastName: 100,
  firstName: 100,
  apn: 64,
  county: 64,
  q: 200,
} as const;

const atMost = (max: number) => `must be at most ${max} characters`;

/** A single query-string value: repeated parameters arrive as arrays and are refused by name. */
const text = (description: string, max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, atMost(max)).openapi({ description });

const stateCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter state code')
  .transform((s) => s.toUpperCase())
  .openapi({ description: 'Two-letter state code', example: 'CA', minLength: 2, maxLength: 2 });

const zip = z
  .string()
  .trim()
  .regex(/^\d{5}(-?\d{4})?$/, 'must be a 5-digit ZIP code (ZIP+4 accepted)')
  .openapi({ description: '5-digit ZIP (ZIP+4 accepted; the add-on is ignored)', example: '95838', maxLength: 10 });

export const PAGE_SIZE_DEFAULT = 25;
export const PAGE_SIZE_MAX = 100;
/** Deep paging is bounded: page x pagesize may not pass this (narrow the search instead). */
export const PAGING_DEPTH_MAX = 10_000;

const page = z.coerce
  .number({ error: 'must be an integer' })
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(PAGING_DEPTH_MAX, `must be at most ${PAGING_DEPTH_MAX}`)
  .default(1)
  .openapi({
    description: `Page number, from 1. page x pagesize may be at most ${PAGING_DEPTH_MAX.toLocaleString('en-US')} (a 400 beyond): narrow the search with state or city instead of paging deeper.`,
    type: 'integer',
    default: 1,
    minimum: 1,
    maximum: PAGING_DEPTH_MAX,
  });

/** page x pagesize within PAGING_DEPTH_MAX, reported on `page`. */
function boundPagingDepth(q: { page: number; pagesize: number }, ctx: z.RefinementCtx): void {
  if (q.page * q.pagesize > PAGING_DEPTH_MAX) {
    ctx.addIssue({
      code: 'custom',
      path: ['page'],
      message: `page x pagesize is ${q.page * q.pagesize}, past the deepest page allowed (${PAGING_DEPTH_MAX}); narrow the search with state or city`,
    });
  }
}

const pagesize = z.coerce
  .number({ error: 'must be an integer' })
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(PAGE_SIZE_MAX, `must be at most ${PAGE_SIZE_MAX}`)
  .default(PAGE_SIZE_DEFAULT)
  .openapi({
    description: 'Records per page',
    type: 'integer',
    default: PAGE_SIZE_DEFAULT,
    minimum: 1,
    maximum: PAGE_SIZE_MAX,
  });

/** The most `max_credits` takes: more than any page costs (PAGE_SIZE_MAX records), with room for batches. */
export const MAX_CREDITS_MAX = 1_000_000;

/**
 * The cost parameters of every metered endpoint: a free preview of what the call would cost, and a cap on its cost.
 * Spread into each metered query (and each batch entry's); read by the metered path, never by a search.
 */
export const meteredOptions = {
  preview: z
    .enum(['true', 'false'], { error: "must be 'true' or 'false'" })
    .optional()
    .transform((v) => v === 'true')
    .openapi({
      type: 'boolean',
      default: false,
      description:
        'A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and ' +
        'page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one.',
    }),
  max_credits: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(0, 'must be at least 0')
    .max(MAX_CREDITS_MAX, `must be at most ${MAX_CREDITS_MAX}`)
    .optional()
    .openapi({
      type: 'integer',
      minimum: 0,
      maximum: MAX_CREDITS_MAX,
      description:
        'The most this call may cost: a call whose page holds more records than this is refused with a 402 that names ' +
        'its cost, and nothing is charged.',
    }),
};

/** Parameters that name the same thing; the alternative wins only when the main one is absent. */
export const ADDRESS_ALIASES = { locality: 'city', countrySubd: 'state', postal1: 'zip' } as const;

export const AddressQuery = z
  .object({
    address: text(
      'Street address, e.g. `123 N Main St Apt 4` (a unit narrows to that unit)',
      TEXT_MAX.address,
    ).optional(),
    city: text('City; pair with state', TEXT_MAX.city).optional(),
    locality: text('Alternative name of `city`', TEXT_MAX.city).optional(),
    state: stateCode.optional(),
    countrySubd: stateCode.optional().openapi({ description: 'Alternative name of `state`' }),
    zip: zip.optional(),
    postal1: zip.optional().openapi({ description: 'Alternative name of `zip`' }),
    number: z
      .string()
      .trim()
      .max(TEXT_MAX.number, atMost(TEXT_MAX.number))
      .regex(/^\d+[A-Za-z]?(-\d+)?$/, 'must be a street number such as 123 or 123A')
      .optional()
      .openapi({ description: 'Street number, when `address` holds the street only' }),
    page,
    pagesize,
    ...meteredOptions,
  })
  .superRefine((q, ctx) => {
    for (const [alt, main] of Object.entries(ADDRESS_ALIASES) as [
      keyof typeof ADDRESS_ALIASES,
      'city' | 'state' | 'zip',
    ][]) {
      const a = q[alt];
      const m = q[main];
      if (a !== undefined && m !== undefined && a.toUpperCase() !== m.toUpperCase()) {
        ctx.addIssue({ code: 'custom', path: [alt], message: `conflicts with '${main}' (${m}); give one of them` });
      }
    }
    const city = q.city ?? q.locality;
    const state = q.state ?? q.countrySubd;
    const zipCode = q.zip ?? q.postal1;
    if (q.address === undefined) {
      ctx.addIssue({ code: 'custom', path: ['address'], message: 'is required (with city and state, or with zip)' });
    } else if (zipCode === undefined && (city === undefined || state === undefined)) {
      const missing =
        city === undefined && state === undefined
          ? 'city and state, or zip'
          : city === undefined
            ? 'city (or zip)'
            : 'state (or zip)';
      ctx.addIssue({
        code: 'custom',
        path: [city === undefined ? 'city' : 'state'],
        message: `is required: give ${missing}`,
      });
    }
    boundPagingDepth(q, ctx);
  });
export type AddressQuery = z.infer<typeof AddressQuery>;

export const OwnerQuery = z
  .object({
    lastName: text('Owner last name; matches primary and secondary owners', TEXT_MAX.lastName),
    firstName: text('Owner first name', TEXT_MAX.firstName).optional(),
    state: stateCode.optional(),
    city: text('City', TEXT_MAX.city).optional(),
    page,
    pagesize,
    ...meteredOptions,
  })
  .superRefine(boundPagingDepth);
export type OwnerQuery = z.infer<typeof OwnerQuery>;

export const ParcelQuery = z.object({
  apn: text('Assessor Parcel Number, with or without special characters', TEXT_MAX.apn).refine(
    (s) => /[0-9A-Za-z]/.test(s),
    {
      message: 'must contain letters or digits',
    },
  ),
  state: stateCode.optional(),
  county: text('County name, e.g. `Sacramento` or `Sacramento County`', TEXT_MAX.county).optional(),
  ...meteredOptions,
});
export type ParcelQuery = z.infer<typeof ParcelQuery>;

export const PropertyIdQuery = z.object({
  id: z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, 'must be a property ID (digits), as in identifier.Id')
    .transform((s) => Number(s))
    .openapi({
      description: 'Property ID from `identifier.Id` of an earlier lookup',
      type: 'string',
      pattern: '^\\d{1,15}$',
      maxLength: 15,
      example: '6000000123',
    }),
  ...meteredOptions,
});
export type PropertyIdQuery = z.infer<typeof PropertyIdQuery>;

export const AutocompleteQuery = z.object({
  q: z.string().trim().min(3, 'must be at least 3 characters').max(TEXT_MAX.q, atMost(TEXT_MAX.q)).openapi({
    description: 'Partial address starting with a house number, or a street name when zip is given',
    example: '3526 HIG',
  }),
  zip: zip.optional(),
  state: stateCode.optional(),
  limit: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(10, 'must be at most 10')
    .default(8)
    .openapi({ type: 'integer', default: 8, minimum: 1, maximum: 10, description: 'Suggestions to return' }),
});
export type AutocompleteQuery = z.infer<typeof AutocompleteQuery>;

/** The optional header of every metered endpoint: a retry with the same key is charged once (the Stripe convention). */
export const IdempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters')
    .optional()
    .openapi({
      description:
        'Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was ' +
        '(same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a ' +
        'different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that ' +
        'timed out may be charged again.',
      example: '3f6c2a1e-8b2d-4c7a-9a51-0d6f1e2b7c44',
    }),
});
