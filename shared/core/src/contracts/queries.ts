// Query parameters of every endpoint (SPEC 4). The same schemas validate requests and describe them in OpenAPI.
import { count } from '../wording.js';
import { z } from './zod.js';
import {
  AREA_SPAN_MAX_MILES,
  DECIMAL,
  parseBox,
  parsePolygon,
  POLYGON_TEXT_MAX,
  POLYGON_VERTICES_MAX,
  RADIUS_MAX_MILES,
} from './area-geometry.js';
import { PROPERTY_TYPES } from '../vocabulary.js';

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
  name: 100,
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

/**
 * A whole number within [min, max], coerced from the query string. The first broken rule is the only one named: a
 * range before wholeness, so 25000000000000000000000 reads "must be at most 10,000" and 1.5 "must be an integer".
 */
const wholeNumber = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be an integer' })
    .min(min, { error: `must be at least ${count(min)}`, abort: true })
    .max(max, { error: `must be at most ${count(max)}`, abort: true })
    .int({ error: 'must be an integer', abort: true });

const page = wholeNumber(1, PAGING_DEPTH_MAX)
  .default(1)
  .openapi({
    description: `Page number, from 1. page x pagesize may be at most ${PAGING_DEPTH_MAX.toLocaleString('en-US')} (a 400 beyond): narrow the search with state or city instead of paging deeper.`,
    type: 'integer',
    default: 1,
    minimum: 1,
    maximum: PAGING_DEPTH_MAX,
  });

/**
 * page x pagesize within PAGING_DEPTH_MAX, reported on `page`; only when page and pagesize are each valid (zod runs
 * an object's refinement even when a field failed, which then has its own message).
 */
function boundPagingDepth(q: { page: unknown; pagesize: unknown }, ctx: z.RefinementCtx): void {
  const { page, pagesize } = q;
  if (typeof page !== 'number' || typeof pagesize !== 'number') return;
  if (!Number.isInteger(page) || page < 1 || page > PAGING_DEPTH_MAX) return;
  if (!Number.isInteger(pagesize) || pagesize < 1 || pagesize > PAGE_SIZE_MAX) return;
  if (page * pagesize > PAGING_DEPTH_MAX) {
    ctx.addIssue({
      code: 'custom',
      path: ['page'],
      message:
        `page ${count(page)} x pagesize ${count(pagesize)} is ${count(page * pagesize)} records deep, past the deepest ` +
        `allowed (${count(PAGING_DEPTH_MAX)}): narrow the search instead of paging deeper`,
    });
  }
}

const pagesize = wholeNumber(1, PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT).openapi({
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
  max_credits: wholeNumber(0, MAX_CREDITS_MAX)
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

/** The parameters of an address lookup, as a query string or a batch entry gives them (cost parameters apart). */
const addressShape = {
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
};

/** Address, city and state or zip, with alternative names that agree; paging within its depth. */
function checkAddress(q: z.infer<z.ZodObject<typeof addressShape>>, ctx: z.RefinementCtx): void {
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
}

export const AddressQuery = z.object({ ...addressShape, ...meteredOptions }).superRefine(checkAddress);
export type AddressQuery = z.infer<typeof AddressQuery>;

/** An owner entity's id (owner1.id ... owner4.id of a record, `id` of /owner/search). */
const ownerId = (description: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, 'must be an owner ID (digits), as in owner.owner1.id')
    .transform((s) => Number(s))
    .openapi({ description, type: 'string', pattern: '^\\d{1,15}$', maxLength: 15, example: '48213' });

export const OwnerQuery = z
  .object({
    lastName: text(
      'Owner last name; matches primary and secondary owners (and a third and fourth where the record has them). Required unless `ownerId` is given',
      TEXT_MAX.lastName,
    ).optional(),
    ownerId: ownerId(
      'An owner entity (`owner.owner1.id` of a record): its parcels, by property ID. Instead of `lastName`; an id merged into another answers as that one',
    ).optional(),
    firstName: text('Owner first name', TEXT_MAX.firstName).optional(),
    state: stateCode.optional(),
    city: text('City', TEXT_MAX.city).optional(),
    page,
    pagesize,
    ...meteredOptions,
  })
  .superRefine(boundPagingDepth)
  .superRefine((q, ctx) => {
    // One search at a time: by name, or by owner entity.
    if ((q.lastName === undefined) === (q.ownerId === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [q.lastName === undefined ? 'lastName' : 'ownerId'],
        message:
          q.lastName === undefined
            ? 'is required (or give ownerId)'
            : 'cannot be given with lastName (search by name or by owner, not both)',
      });
    }
    if (q.ownerId !== undefined && (q.firstName ?? q.city ?? q.state) !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['ownerId'], message: 'takes no firstName, state or city' });
    }
  });
export type OwnerQuery = z.infer<typeof OwnerQuery>;

/** The fewest letters an owner name search takes: fewer would match a large share of all owners. */
export const OWNER_NAME_MIN_LETTERS = 3;

export const OwnerDetailQuery = z.object({
  id: ownerId('Owner ID, from `owner.owner1.id` ... `owner.owner4.id` of a record or `id` of /owner/search'),
  ...meteredOptions,
});
export type OwnerDetailQuery = z.infer<typeof OwnerDetailQuery>;

export const OwnerSearchQuery = z
  .object({
    name: text(
      `The start of an owner's name: an entity's (\`ACME HOLDINGS\`), a person's LAST FIRST (\`SMITH JOHN\`); at least ${OWNER_NAME_MIN_LETTERS} letters`,
      TEXT_MAX.name,
    ).refine((s) => (s.match(/[A-Za-z]/g) ?? []).length >= OWNER_NAME_MIN_LETTERS, {
      message: `must hold at least ${OWNER_NAME_MIN_LETTERS} letters (a shorter name matches too many owners)`,
    }),
    state: stateCode.optional(),
    page,
    pagesize,
    ...meteredOptions,
  })
  .superRefine(boundPagingDepth);
export type OwnerSearchQuery = z.infer<typeof OwnerSearchQuery>;

export const ParcelQuery = z.object({
  apn: text('Assessor Parcel Number, with or without special characters', TEXT_MAX.apn).refine(
    (s) => /[0-9A-Za-z]/.test(s),
    {
      message: 'must contain letters or digits',
    },
  ),
  state: stateCode.optional(),
  county: text(
    'County name, e.g. `Sacramento` or `Sacramento County`; a bare name also means the independent city of that name (`Charlottesville`)',
    TEXT_MAX.county,
  ).optional(),
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

/**
 * The most matching suggestions the type-ahead's `status.total` counts: exact below it, and this many means that many
 * or more (a type-ahead is narrowed by typing, never paged; counting further would cost every keystroke).
 */
export const AUTOCOMPLETE_TOTAL_CAP = 100;

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

/** An Idempotency-Key header (parsed at run time by @pra/platform's idempotency.ts), with what a retry with it does. */
const idempotencyKey = (description: string) =>
  z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters')
    .optional()
    .openapi({ description, example: '3f6c2a1e-8b2d-4c7a-9a51-0d6f1e2b7c44' });

/** The optional header of every metered endpoint: a retry with the same key is charged once (the Stripe convention). */
export const IdempotencyHeaders = z.object({
  'Idempotency-Key': idempotencyKey(
    'Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was ' +
      '(same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a ' +
      'different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that ' +
      'timed out may be charged again.',
  ),
});

/** The optional header of a creation (POST /webhooks): a retry with the same key creates nothing more. */
export const CreateHeaders = z.object({
  'Idempotency-Key': idempotencyKey(
    'Makes a retry safe: a creation repeated with the same key within 24 hours creates nothing more and is answered with ' +
      'what the first made, as it is now (with its secret; header `Idempotent-Replayed: true`). The same key with another ' +
      'body is a 400. Without it, a retry of a creation that timed out makes a second webhook.',
  ),
});

/**
 * The optional headers of every metered endpoint: the Idempotency-Key, and If-None-Match (issue 38): the ETag of an
 * answer received, to be answered 304 for free while its records are unchanged.
 */
export const MeteredHeaders = IdempotencyHeaders.extend({
  'If-None-Match': z
    .string()
    .optional()
    .openapi({
      description:
        'The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form ' +
        'matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, ' +
        'the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the ' +
        'usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. ' +
        '`*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header.',
      example: '"f3VtQk9xd2hSaTRmN0JqZX"',
    }),
});

/** The most entries a batch takes (as Smarty's street API); a longer list is chunked by the client. */
export const BATCH_MAX = 100;
/** The largest batch body taken (the gateway's size limit on its route lets it through): 100 long entries fit. */
export const BATCH_BODY_MAX_BYTES = 256 * 1024;

/**
 * A batch counts toward the rate limit, the daily quota and /usage's calls by its entries: one call per
 * BATCH_ENTRIES_PER_CALL entries, rounded up (a full batch of 100 is 10 calls). Per entry (1 each) would make a
 * 100-entry batch bigger than a starter's whole minute (60); one call per batch let a free batch preview cost the
 * store 100 lookups for one token.
 */
export const BATCH_ENTRIES_PER_CALL = 10;

/**
 * The calls a batch's body counts for, read the same way by the gateway (before admitting it) and the lookup (when
 * counting it): ceil(entries / BATCH_ENTRIES_PER_CALL), entries capped at BATCH_MAX (more is a 400 anyway); a body
 * that is not `{"requests": [...]}` (a 400) counts 1.
 */
export function batchCallWeight(body: unknown): number {
  const requests =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as { requests?: unknown }).requests
      : null;
  if (!Array.isArray(requests)) return 1;
  return Math.max(1, Math.ceil(Math.min(requests.length, BATCH_MAX) / BATCH_ENTRIES_PER_CALL));
}

/**
 * The deepest a batch body nests (`{"requests": [{...}]}` is 3; an entry's values are strings and numbers): past it
 * the body is no batch, and is weighed without being parsed.
 */
export const BATCH_JSON_MAX_DEPTH = 8;

/**
 * Whether JSON text nests past `max` (brackets in strings do not count): one pass over the characters, so that a body
 * crafted to be costly to parse (256 KB of nested arrays: ~100 ms of JSON.parse) is found out cheaply.
 */
export function nestsPast(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * batchCallWeight of a raw body (JSON text); one that does not parse counts 1, as does one nested deeper than a
 * batch (never parsed: the gateway weighs every batch in the pluginserver all tenants share; the service answers
 * it 400).
 */
export function batchCallWeightOf(raw: string | null | undefined): number {
  if (!raw || nestsPast(raw, BATCH_JSON_MAX_DEPTH)) return 1;
  try {
    return batchCallWeight(JSON.parse(raw));
  } catch {
    return 1;
  }
}
/** A batch entry's own id is the client's: echoed in its result, at most this long. */
export const BATCH_ID_MAX = 64;

/** One entry of a batch: the parameters of /property/address, as JSON values, and the client's own `id`. */
export const BatchEntry = z
  .object({
    id: z
      .string()
      .max(BATCH_ID_MAX, atMost(BATCH_ID_MAX))
      .optional()
      .openapi({ description: 'Your id for this entry, echoed in its result', example: 'a1' }),
    ...addressShape,
  })
  .superRefine(checkAddress)
  .openapi('BatchEntry');
export type BatchEntry = z.infer<typeof BatchEntry>;

/** The list of a batch's entries, 1 to BATCH_MAX of `entry`. */
const batchList = <T extends z.ZodType>(entry: T) =>
  z
    .array(entry, { error: 'must be a list of address lookups' })
    .min(1, 'must hold at least one entry')
    .max(BATCH_MAX, `must hold at most ${BATCH_MAX} entries (send more in several batches; @pra/client does)`);

/** The batch's body as documented: each entry a BatchEntry. */
export const BatchRequest = z
  .object({
    requests: batchList(BatchEntry).openapi({ description: `1 to ${BATCH_MAX} address lookups, answered in order` }),
  })
  .openapi('BatchRequest');

/**
 * The batch's body as the service reads it first: the envelope (an object with `requests` and nothing else, 1 to
 * BATCH_MAX entries). Each entry is then read on its own as a BatchEntry: one that cannot be read is a 400 in its
 * own result, not the batch's.
 */
export const BatchBody = z.strictObject({ requests: batchList(z.unknown()) });

/** The query string of a batch: its cost parameters, for the whole batch. */
export const BatchQuery = z.object(meteredOptions);

// Area search (issue 27): a circle, a box or a GeoJSON polygon; paged, nearest first, filterable by property type.
// The geometry (bounds, self-crossing rings, spans) is area-geometry.ts: a bad shape is a 400 here, before any read.

/** A decimal number within [min, max], or above min when `aboveMin` (no NaN, Infinity, exponent or empty value). */
const decimalParam = (description: string, min: number, max: number, example: number, aboveMin = false) =>
  z
    .string()
    .trim()
    .regex(DECIMAL, 'must be a decimal number such as 40.7128')
    .transform(Number)
    .refine(
      (n) => (aboveMin ? n > min : n >= min) && n <= max,
      aboveMin ? `must be more than ${min} and at most ${max}` : `must be from ${min} to ${max}`,
    )
    .openapi({
      description,
      type: 'number',
      minimum: min,
      maximum: max,
      ...(aboveMin ? { exclusiveMinimum: true } : {}),
      example,
    });

/** Property types, comma-separated, any case: the records of any of them. */
const proptypeFilter = z
  .string()
  .trim()
  .max(200, atMost(200))
  .transform((s, ctx) => {
    const asked = s.split(',').map((t) => t.trim().toUpperCase());
    const unknown = asked.filter((t) => !(PROPERTY_TYPES as readonly string[]).includes(t));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `'${unknown[0]!.slice(0, 40)}' is not a property type: give one or more (comma-separated) of ${PROPERTY_TYPES.join(', ')}`,
      });
      return z.NEVER;
    }
    return [...new Set(asked)];
  })
  .optional()
  .openapi({
    type: 'string',
    maxLength: 200,
    description: `Only records of these property types (\`summary.proptype\`), comma-separated, any case: ${PROPERTY_TYPES.join(', ')}`,
    example: 'SFR,CONDOMINIUM',
  });

export const RadiusQuery = z
  .object({
    latitude: decimalParam('Latitude of the centre, degrees', -90, 90, 40.7484),
    longitude: decimalParam('Longitude of the centre, degrees', -180, 180, -73.9857),
    radius: decimalParam(`Radius in miles, more than 0 and at most ${RADIUS_MAX_MILES}`, 0, RADIUS_MAX_MILES, 1, true),
    proptype: proptypeFilter,
    page,
    pagesize,
    ...meteredOptions,
  })
  .superRefine(boundPagingDepth);
export type RadiusQuery = z.infer<typeof RadiusQuery>;

/** A transform through `parse`, which answers the value or why not: the why is the parameter's 400 message. */
const parsedBy =
  <T>(parse: (text: string) => T | string) =>
  (text: string, ctx: z.RefinementCtx): T => {
    const parsed = parse(text);
    if (typeof parsed !== 'string') return parsed;
    ctx.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  };

export const AreaQuery = z
  .object({
    bbox: z
      .string()
      .trim()
      .max(120, atMost(120))
      .transform(parsedBy(parseBox))
      .optional()
      .openapi({
        type: 'string',
        maxLength: 120,
        description: `A box: \`minLon,minLat,maxLon,maxLat\` in degrees, at most ${AREA_SPAN_MAX_MILES} miles each way. Give bbox or polygon.`,
        example: '-74.01,40.70,-73.97,40.75',
      }),
    polygon: z
      .string()
      .trim()
      .max(POLYGON_TEXT_MAX, atMost(POLYGON_TEXT_MAX))
      .transform(parsedBy(parsePolygon))
      .optional()
      .openapi({
        type: 'string',
        maxLength: POLYGON_TEXT_MAX,
        description:
          `A GeoJSON Polygon (RFC 7946), URL-encoded: one closed ring of [longitude, latitude], 3 to ${POLYGON_VERTICES_MAX} ` +
          `vertices, not crossing itself, no holes; edges are straight in longitude/latitude; its bounding box at most ` +
          `${AREA_SPAN_MAX_MILES} miles each way. Give bbox or polygon.`,
        example: '{"type":"Polygon","coordinates":[[[-74.0,40.7],[-73.97,40.7],[-73.98,40.74],[-74.0,40.7]]]}',
      }),
    proptype: proptypeFilter,
    page,
    pagesize,
    ...meteredOptions,
  })
  .superRefine((q, ctx) => {
    if ((q.bbox === undefined) === (q.polygon === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [q.bbox === undefined ? 'bbox' : 'polygon'],
        message:
          q.bbox === undefined ? 'is required: give bbox or polygon' : 'cannot be given with bbox: give one of them',
      });
    }
    boundPagingDepth(q, ctx);
  });
export type AreaQuery = z.infer<typeof AreaQuery>;
