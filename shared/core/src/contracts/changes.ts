// The change feed (issue 38): GET /changes, its query and its answer. What the feed holds is written by imports
// (services/ingest/src/data/change-events.ts); the lookup reads it by an opaque cursor.
import { CHANGE_RETENTION_DAYS } from '../config.js';
import { CHANGE_PARTS, type ChangePart } from '../vocabulary.js';
import { z } from './zod.js';
import { SuccessStatus } from './envelopes.js';
import { meteredOptions, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './queries.js';

/** How long the feed keeps an event (config.ts): a cursor older than this has expired. */
export { CHANGE_RETENTION_DAYS };

export { CHANGE_PARTS, type ChangePart };

/** The most property ids a watch list (`ids`) takes, and the longest text it may be (ids of up to 15 digits). */
export const WATCH_LIST_MAX = 500;
export const WATCH_LIST_TEXT_MAX = WATCH_LIST_MAX * 16;
/** The longest cursor taken (those issued are about 30 characters). */
const CURSOR_MAX = 100;

const stateCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter state code')
  .transform((s) => s.toUpperCase())
  .openapi({ description: 'Two-letter state code', example: 'PA', minLength: 2, maxLength: 2 });

const digitsId = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, `must be ${what} (digits)`);

export const ChangesQuery = z
  .object({
    since: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(CURSOR_MAX, `must be at most ${CURSOR_MAX} characters`)
      .regex(/^[A-Za-z0-9_-]+$/, 'must be a cursor as status.cursor gave it')
      .optional()
      .openapi({
        description:
          'Where to continue: `status.cursor` of the previous answer with the same filters. Absent: from the oldest ' +
          `event kept (events are kept ${CHANGE_RETENTION_DAYS} days).`,
        maxLength: CURSOR_MAX,
      }),
    pagesize: z.coerce
      .number({ error: 'must be an integer' })
      .min(1, { error: 'must be at least 1', abort: true })
      .max(PAGE_SIZE_MAX, { error: `must be at most ${PAGE_SIZE_MAX}`, abort: true })
      .int({ error: 'must be an integer', abort: true })
      .default(PAGE_SIZE_DEFAULT)
      .openapi({
        description: 'Events per page',
        type: 'integer',
        default: PAGE_SIZE_DEFAULT,
        minimum: 1,
        maximum: PAGE_SIZE_MAX,
      }),
    zip: z
      .string()
      .trim()
      .regex(/^\d{5}(-?\d{4})?$/, 'must be a 5-digit ZIP code (ZIP+4 accepted)')
      .transform((s) => s.slice(0, 5))
      .optional()
      .openapi({ description: 'Only records in this ZIP (ZIP+4 accepted; the add-on is ignored)', maxLength: 10 }),
    county: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters').optional().openapi({
      description:
        'Only records in this county: its name (`Philadelphia`, `Philadelphia County`) or 5-digit FIPS code; needs `state`',
    }),
    state: stateCode.optional().openapi({ description: 'Only records in this state; required with `county`' }),
    ownerId: digitsId('an owner ID').optional().openapi({
      description:
        'Only records this owner entity owned before or after the change (`owner.owner1.id` of a record; an ID merged into another answers as that one)',
      type: 'string',
      maxLength: 15,
      pattern: '^\\d{1,15}$',
    }),
    ids: z
      .string()
      .trim()
      .max(WATCH_LIST_TEXT_MAX, `must be at most ${WATCH_LIST_TEXT_MAX} characters`)
      .transform((s, ctx) => {
        const ids = s.split(',').map((t) => t.trim());
        const bad = ids.find((t) => !/^\d{1,15}$/.test(t));
        if (bad !== undefined) {
          ctx.addIssue({
            code: 'custom',
            message: `'${bad.slice(0, 20)}' is not a property ID: give property IDs (identifier.Id), comma-separated`,
          });
          return z.NEVER;
        }
        const unique = [...new Set(ids.map((t) => String(Number(t))))];
        if (unique.length > WATCH_LIST_MAX) {
          ctx.addIssue({ code: 'custom', message: `must list at most ${WATCH_LIST_MAX} property IDs` });
          return z.NEVER;
        }
        return unique;
      })
      .optional()
      .openapi({
        type: 'string',
        maxLength: WATCH_LIST_TEXT_MAX,
        description: `A watch list: only these properties (identifier.Id), comma-separated, at most ${WATCH_LIST_MAX}`,
        example: '6000000123,6000000124',
      }),
    ...meteredOptions,
  })
  .superRefine((q, ctx) => {
    if (q.county !== undefined && q.state === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message: 'is required with county (a county name is per state)',
      });
  });
export type ChangesQuery = z.infer<typeof ChangesQuery>;

const SaleSummary = z.object({ date: z.string().openapi({ format: 'date' }), price: z.number().int().nullable() });
const AssessmentSummary = z.object({
  taxYear: z.number().int().nullable(),
  total: z.number().int().nullable(),
  marketTotal: z.number().int().nullable(),
});
const beforeAfter = <T extends z.ZodType>(v: T, description: string) =>
  z.object({ old: v, new: v }).optional().openapi({ description });

export const ChangeEvent = z
  .object({
    id: z.string().openapi({ description: "The event's ID (its place in the feed)", example: '48213' }),
    propertyId: z.number().int().openapi({ description: 'The record changed (identifier.Id)', format: 'int64' }),
    parts: z.array(z.enum(CHANGE_PARTS)).openapi({ description: 'Which parts of the record changed' }),
    changedAt: z.string().datetime().openapi({ description: 'When the import committed the change' }),
    zip: z.string().openapi({ description: "The record's ZIP ('' when its county file gives none)" }),
    state: z.string(),
    county: z.string().openapi({ description: 'The county name, normalised (`PHILADELPHIA`)' }),
    fips: z.string().openapi({ description: 'The county FIPS code' }),
    owner: beforeAfter(
      z.array(z.string()),
      'With an owner change (or a created record): the owner names before and after',
    ),
    sale: beforeAfter(
      SaleSummary.nullable(),
      'With a sale change (or a created record): the last sale before and after',
    ),
    assessment: beforeAfter(
      AssessmentSummary.nullable(),
      'With an assessment change (or a created record): the current assessment before and after',
    ),
  })
  .openapi('ChangeEvent');
export type ChangeEvent = z.infer<typeof ChangeEvent>;

export const ChangesStatus = SuccessStatus.extend({
  cursor: z.string().openapi({
    description:
      'Where the next call continues (`since`): after the last event returned (and paid for), or, when the page was ' +
      'not full, after every event committed when it was read. Bound to the filters it was read with.',
  }),
  more: z.boolean().openapi({
    description: 'The page was full (or cut short by credits): more events may follow at once',
  }),
}).openapi('ChangesStatus');

export const ChangesResponse = z
  .object({ changes: z.array(ChangeEvent), status: ChangesStatus })
  .openapi('ChangesResponse');
export type ChangesResponse = z.infer<typeof ChangesResponse>;
