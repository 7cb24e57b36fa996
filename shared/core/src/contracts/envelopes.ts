// Response envelopes: PropertyResponse (SPEC 2.2) and ErrorResponse (SPEC 2.3).
import { ERROR_REASONS, ERROR_STATUS } from '../errors.js';
import { z } from './zod.js';
import { PropertyRecord, SaleHistoryRecord, AssessmentHistoryRecord, Suggestion } from './record.js';

export const MATCH_TYPES = ['exact', 'standardized', 'type_inferred', 'corrected', 'building'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

const part = (description: string) => z.string().nullable().openapi({ description });

export const AddressParts = z
  .object({
    number: part('House number ("123", "123A", "12-34")'),
    predirectional: part('Directional before the name ("N")'),
    street: z.string().openapi({ description: 'Street name, standardised ("21ST", "MARTIN LUTHER KING JR")' }),
    suffix: part('Street type, USPS abbreviation ("ST", "AVE")'),
    postdirectional: part('Directional after the street type ("E")'),
    unit: part(
      'Unit id without its designator ("2C"); "" for a designator without its number; null when no unit is named ' +
        "(in `matched`: the answer holds every unit at the line, or the building's own record)",
    ),
  })
  .openapi('AddressParts');
export type AddressParts = z.infer<typeof AddressParts>;

export const AddressMatch = z
  .object({
    type: z.enum(MATCH_TYPES).openapi({
      description:
        '`exact`: the line as written is the stored line. `standardized`: the same line once spellings are standardised ' +
        '(Street/ST, West/W, 21/21ST). `type_inferred`: the street type was missing on one side and is the only type ' +
        'of that street in the ZIP or city. `corrected`: another part was read differently (a one-letter slip in the ' +
        'name, a post-directional given on one side only, a number or a route-lettered id after the street read as ' +
        "the unit, a letter after the house number's dash read as a directional, a letter written apart read as the " +
        "house number's, a unit asked that the stored line holds: kept in the " +
        "street's name after a street without a type or a route's number, or as the house number's letter). " +
        '`building`: ' +
        'the unit asked is not a record of its own; the record of the whole building answers.',
    }),
    input: AddressParts.openapi({ description: 'The address as the query was read' }),
    matched: AddressParts.openapi({ description: 'The stored address that answered' }),
    differed: z.array(z.enum(['number', 'predirectional', 'street', 'suffix', 'postdirectional', 'unit'])).openapi({
      description: 'The parts that differ between `input` and `matched` (empty for exact and standardized)',
    }),
  })
  .openapi('AddressMatch');
export type AddressMatch = z.infer<typeof AddressMatch>;

export const SuccessStatus = z
  .object({
    code: z.literal(0).openapi({ type: 'integer', enum: [0], description: '0 = success' }),
    msg: z.string().openapi({ example: 'SuccessWithResult' }),
    total: z.number().int().openapi({ description: 'Total matching records; may exceed pagesize' }),
    page: z.number().int(),
    pagesize: z.number().int(),
    transactionID: z.string().uuid(),
    credits_remaining: z.number().int().openapi({ description: 'Credit balance after the call' }),
    records_returned: z.number().int().openapi({ description: 'Records returned (and billed) by this call' }),
    truncated_by_credits: z.boolean().openapi({ description: 'True when credits ran out before the page was full' }),
    credits_required: z.number().int().optional().openapi({
      description:
        'With `preview=true` only: what the call would cost at this page and page size (the records on that page); nothing is charged',
    }),
    match: AddressMatch.optional().openapi({
      description: 'Address lookups only: how the address asked matched the stored one',
    }),
  })
  .openapi('Status');

function propertyResponse<T extends z.ZodTypeAny>(name: string, item: T) {
  return z.object({ property: z.array(item), status: SuccessStatus }).openapi(name);
}

export const PropertyResponse = propertyResponse('PropertyResponse', PropertyRecord);
export type PropertyResponse = z.infer<typeof PropertyResponse>;
export const SaleHistoryResponse = propertyResponse('SaleHistoryResponse', SaleHistoryRecord);
export const AssessmentHistoryResponse = propertyResponse('AssessmentHistoryResponse', AssessmentHistoryRecord);
export const SuggestionResponse = propertyResponse('SuggestionResponse', Suggestion);

/** Why a request was refused (status.reason): a closed list, each reason with its one HTTP status. */
export const ErrorReason = z.enum(ERROR_REASONS).openapi('ErrorReason', {
  description:
    'Why the request was refused, for code to act on (the message is for people). Each reason has one HTTP status: ' +
    ERROR_REASONS.map((r) => `\`${r}\` ${ERROR_STATUS[r]}`).join(', '),
  example: 'insufficient_credits',
});

export const ErrorResponse = z
  .object({
    property: z.array(z.object({})).max(0).openapi({ description: 'Always empty' }),
    status: z.object({
      code: z.number().int().openapi({ description: 'The HTTP status code', example: 400 }),
      reason: ErrorReason,
      msg: z.string().openapi({ example: "Invalid parameter 'pagesize': must be at most 100" }),
      total: z.number().int(),
      transactionID: z.string().uuid().optional().openapi({ description: 'Same as the X-Request-Id header' }),
    }),
  })
  .openapi('ErrorResponse');
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** One entry's answer in a batch: its status, how its address matched, its records. */
export const BatchResult = z
  .object({
    id: z.string().nullable().openapi({ description: "The entry's `id`, or null when it gave none" }),
    status: z.object({
      code: z
        .number()
        .int()
        .openapi({
          description:
            '0 = records found; else the HTTP status a single call would have had: 400 (the entry is invalid), 404 ' +
            '(nothing found), 402 (the credits ran out before this entry)',
        }),
      msg: z.string(),
      total: z.number().int(),
      page: z.number().int().optional(),
      pagesize: z.number().int().optional(),
      records_returned: z.number().int().openapi({ description: 'Records returned (and billed) for this entry' }),
      truncated_by_credits: z.boolean(),
      credits_required: z
        .number()
        .int()
        .optional()
        .openapi({ description: 'With `preview=true`: what this entry would cost' }),
    }),
    // Inline (not the AddressMatch component): OpenAPI 3.0 has no nullable reference.
    match: z.object(AddressMatch.shape).nullable().openapi({
      description: 'How the address matched, as `status.match` of /property/address (null when nothing did)',
    }),
    property: z.array(PropertyRecord),
  })
  .openapi('BatchResult');

export const BatchResponse = z
  .object({
    results: z.array(BatchResult).openapi({ description: 'One result per entry, in the order of `requests`' }),
    status: z.object({
      code: z.literal(0).openapi({ type: 'integer', enum: [0], description: '0 = success' }),
      msg: z.string().openapi({ example: 'SuccessWithResult' }),
      transactionID: z.string().uuid(),
      credits_remaining: z.number().int(),
      records_returned: z.number().int().openapi({ description: 'Records returned (and billed) by the whole batch' }),
      truncated_by_credits: z.boolean().openapi({ description: 'True when the credits ran out within the batch' }),
      credits_required: z.number().int().optional().openapi({
        description: 'With `preview=true` only: what the whole batch would cost; nothing is charged',
      }),
    }),
  })
  .openapi('BatchResponse');
export type BatchResponse = z.infer<typeof BatchResponse>;

/** An owner entity (issue 37): who it is, and sums over every parcel it owns. */
export const OwnerDetail = z
  .object({
    id: z
      .number()
      .int()
      .openapi({ description: 'The owner ID (an ID merged into this owner answers as it)', format: 'int64' }),
    name: z.string().openapi({ description: 'The name most of its mentions write', example: 'ACME HOLDINGS LLC' }),
    names: z.array(z.string()).openapi({ description: 'Every way its records write its name' }),
    type: z.string().nullable().openapi({ description: 'Owner type (owner.owner1.type), as most mentions give it' }),
    mailingAddresses: z.array(z.string()).openapi({ description: 'Its mailing addresses as records write them' }),
    parcelCount: z.number().int().openapi({ description: 'Properties it owns (in any owner place, owner1 to owner4)' }),
    marketTotal: z.number().int().openapi({ description: 'Sum of assessment.market.total over its properties' }),
    assessedTotal: z.number().int().openapi({ description: 'Sum of assessment.assessed.total over its properties' }),
    states: z.array(z.string()),
    counties: z.array(z.string()).openapi({ description: '"County, ST"', example: ['Philadelphia, PA'] }),
    firstAcquired: z.string().nullable().openapi({ format: 'date', description: 'Earliest last-sale date' }),
    lastAcquired: z.string().nullable().openapi({ format: 'date', description: 'Latest last-sale date' }),
  })
  .openapi('OwnerDetail');
export type OwnerDetail = z.infer<typeof OwnerDetail>;

export const OwnerDetailResponse = z
  .object({
    owner: OwnerDetail.nullable().openapi({ description: 'null in a preview (nothing charged, nothing shown)' }),
    status: SuccessStatus,
  })
  .openapi('OwnerDetailResponse');

export const OwnerSummary = z
  .object({
    id: z.number().int().openapi({ format: 'int64' }),
    name: z.string(),
    type: z.string().nullable(),
    parcelCount: z.number().int(),
    states: z.array(z.string()),
  })
  .openapi('OwnerSummary');

export const OwnerSearchResponse = z
  .object({ owners: z.array(OwnerSummary), status: SuccessStatus })
  .openapi('OwnerSearchResponse');
