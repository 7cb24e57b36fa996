// A mapping file says how a county extract's columns and value formats become record fields, so a new county's
// file loads without code changes. It is validated with zod before any row is read.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { convert, isFillOnly, VALUE_FORMATS, WORD_TARGETS } from './mapping-rules.js';

export const PROPERTY_TARGETS = [
  'apn',
  'taxParcelId',
  'line1',
  'line2',
  'unit',
  'city',
  'state',
  'zip',
  'zip4',
  'county',
  'latitude',
  'longitude',
  'censusTract',
  'proptype',
  'yearBuilt',
  'lotSqft',
  /** The lot's area in acres, for a roll that writes acres (Lebanon's): `lot.lotsize2` as written, `lotsize1` its
   * square feet; with lotSqft, each its own. */
  'lotAcres',
  'buildingSqft',
  'beds',
  /** The file's own total of bathrooms (a half bath 0.5); not with bathsFull. */
  'bathsTotal',
  /** Full bathrooms, for a file that counts full and half ones apart: the total is made of them and the half
   * bathrooms (each 0.5); not with bathsTotal. */
  'bathsFull',
  /** Half (partial) bathrooms, a count. */
  'bathsPartial',
  /** A cell that may hold one or two owners (rule option `order`); with owner2Name, both cells are read together. */
  'ownerName',
  'owner2Name',
  'ownerType',
  'saleDate',
  'salePrice',
  /**
   * Who sold in the last sale (a roll's grantor column, Lebanon's): read by the owner-name parser (rule option
   * `order`) into the sale's `sellerName`, every name the cell holds (owners stop at four: the record has four places).
   */
  'saleSeller',
  /** When the last sale's deed was recorded (Philadelphia's `recording_date`), a date. */
  'saleRecordingDate',
  /** Further sales written in columns of the same row (Lebanon's prior sales): each one more sale of the history. */
  'sale2Date',
  'sale2Price',
  'sale3Date',
  'sale3Price',
  'sale4Date',
  'sale4Price',
  /**
   * Each sale's deed by its book and page (`4119/0683`), where a roll writes it: the history's `documentNumber`, and
   * what tells one deed written in two columns of a row (one sale) from two deeds of one day (two sales: import-row.ts
   * salesOf, sale-merge.ts saleKey).
   */
  'saleBookPage',
  'sale2BookPage',
  'sale3BookPage',
  'sale4BookPage',
  'assessedLand',
  'assessedImprovements',
  'assessedTotal',
  'marketTotal',
  'taxYear',
  'mortgageAmount',
  'mortgageDate',
  'mortgageLender',
  /** The owner's mailing address: absentee ownership is known only when the file gives it (line and ZIP). */
  'mailingLine1',
  'mailingCity',
  'mailingState',
  'mailingZip',
  /** One cell with city, state and (optionally) ZIP or ZIP+4: "SPRINGFIELD IL 62704-1234", "PHILADELPHIA PA". */
  'mailingCityStateZip',
  /** The same for the site address. */
  'cityStateZip',
  /** The county's 5-digit FIPS code (a constant or a column): makes a short census tract the 11-digit tract id. */
  'fips',
] as const;

/** The targets read by the owner-name parser, whose rules may say how they write a person's name (`order`). */
const NAME_TARGETS: ReadonlySet<string> = new Set(['ownerName', 'owner2Name', 'saleSeller']);

/** The mapping has cells the owner-name parser reads (and so needs its name lists: name-frequencies.ts). */
export function readsNames(mapping: Mapping): boolean {
  return mapping.kind === 'property' && Object.keys(mapping.fields).some((t) => NAME_TARGETS.has(t));
}

/**
 * The targets a rule may give `fillOnly`: each fills one field of its own, which the file then gives only to a parcel
 * that has none (see fillOnlyProblems).
 */
export const FILL_ONLY_TARGETS = [
  'proptype',
  'yearBuilt',
  'buildingSqft',
  'beds',
  'censusTract',
  'taxParcelId',
] as const;

/** How a cell of names writes a person's name: assessor rolls write LAST FIRST. */
export const OWNER_ORDERS = ['last-first', 'first-last'] as const;

/** When a rule's fallback column is read (its `fallbackIf`): apply-rules.ts tells a cell of each kind. */
export const FALLBACK_KINDS = ['street-line'] as const;

/** The targets a `fallbackIf: street-line` rule may fill: the lines of a street address. */
const STREET_LINE_TARGETS = new Set(['line1', 'mailingLine1']);

export const TRACT_TARGETS = [
  'tract',
  'vintageYear',
  'medianAge',
  'medianGrossRent',
  'medianHomeValue',
  'medianHouseholdIncome',
  'ownerOccupiedRate',
  'povertyRate',
  'totalPopulation',
  'unemploymentRate',
  'vacancyRate',
] as const;

/**
 * A value (the `map`'s, or the cell's when the map does not name it) made more precise by another column of the row:
 * a roll whose use class says SINGLE FAMILY and whose building class says ROW is a rowhouse. Tried in the rule's order
 * after its `map`; the first that holds gives the value, read in the rule's format.
 */
const Refinement = z
  .object({
    /** The values (after the rule's `map`, in any case) it refines. */
    when: z.array(z.string().min(1)).min(1),
    /** The column it reads; `fallback`, a column read when that one is empty. */
    column: z.string().min(1),
    fallback: z.string().min(1).optional(),
    /** It holds when the cell (trimmed, in any case) starts with one of these. */
    startsWith: z.array(z.string().min(1)).min(1),
    /** The value it then gives. */
    to: z.string().min(1),
  })
  .strict();
export type Refinement = z.infer<typeof Refinement>;

const FieldRule = z.union([
  z
    .object({
      column: z.string().min(1),
      /** A column read when `column` is empty (a roll that writes a value in one of two places). */
      fallback: z.string().min(1).optional(),
      /**
       * The fallback's cell is read only when it is of this kind. `street-line`: a house number and a street with its
       * type (`1623 RIDGE AVE.`, `21 S 11TH ST STE 501`), or a post office box; never a name (`DUFFEY DANIEL
       * EDWARD`, `6808 RIDGE HOLDINGS LLC`), a building's (`MUNICIPAL SERVICES BLDG`) or a number alone. For a roll
       * whose other address cell holds a street in some rows and a name or an attention line in others
       * (Philadelphia's `mailing_address_1`).
       */
      fallbackIf: z.enum(FALLBACK_KINDS).optional(),
      format: z.enum(VALUE_FORMATS).default('text'),
      /** Cells of names only (NAME_TARGETS): how a person's name is written. */
      order: z.enum(OWNER_ORDERS).optional(),
      /**
       * Format `year` only: years added to the one read, for a tax year written as the date its values were set
       * (Philadelphia's `assessment_date` 2022-05-24 is tax year 2023: `"format": "year", "add": 1`).
       */
      add: z.number().int().min(-10).max(10).optional(),
      /** Value translations applied before the format, e.g. {"Residential": "SFR"}. */
      map: z.record(z.string(), z.string()).optional(),
      /** Values made more precise by other columns of the row (Philadelphia's rowhouses), after `map`. */
      refine: z.array(Refinement).min(1).optional(),
      /** Treat these raw values as missing (e.g. "0" for unknown beds). */
      nullIf: z.array(z.string()).default([]),
      required: z.boolean().default(false),
      /**
       * The file's value fills the field only where the parcel has none: it never replaces a value (another file's,
       * or this file's from an earlier import) and its empty cell never clears one. For a file that knows the field
       * less well than another of the county (Charlottesville's parcels file types its commercial parcels; its
       * residential details type the houses). FILL_ONLY_TARGETS only.
       */
      fillOnly: z.boolean().optional(),
    })
    .strict(),
  z
    .object({
      /**
       * A value built from several columns: "{BOROUGH}-{BLOCK}-{LOT}"; "{BLOCK:05}" pads a value with zeros to 5
       * characters. Empty when any column in it is empty.
       */
      template: z.string().regex(/\{[^}]+\}/, 'a template names at least one {COLUMN}'),
      format: z.enum(VALUE_FORMATS).default('text'),
      nullIf: z.array(z.string()).default([]),
      required: z.boolean().default(false),
      /** As a column rule's. */
      fillOnly: z.boolean().optional(),
    })
    .strict(),
  z.object({ value: z.union([z.string(), z.number()]) }).strict(),
]);

export type FieldRule = z.infer<typeof FieldRule>;

/**
 * A file that adds to parcels another file made (a county's roll in several files): its rows join the parcels of
 * `mapping`'s import by APN, or by address (line with unit), and add only what this mapping reads.
 */
const Join = z
  .object({
    mapping: z.string().regex(/^[a-z0-9-]+$/, 'the name of the mapping whose parcels this file joins'),
    on: z.enum(['apn', 'address']),
  })
  .strict();
export type Join = z.infer<typeof Join>;

type PropertyFields = Partial<Record<(typeof PROPERTY_TARGETS)[number], FieldRule>>;

/**
 * A tax year is a whole year: read as `year` (a year or a date's: `integer` would round 2025.5), or a constant year
 * from 1700 to next year (a cell's year is checked as it is read: apply-rules.ts).
 */
function taxYearProblem(rule: FieldRule | undefined): string | null {
  if (!rule) return null;
  if ('value' in rule) {
    const next = new Date().getUTCFullYear() + 1;
    const ok =
      typeof rule.value === 'number' && Number.isInteger(rule.value) && rule.value >= 1700 && rule.value <= next;
    return ok ? null : `a constant tax year is a year from 1700 to ${next}, not ${JSON.stringify(rule.value)}`;
  }
  return rule.format === 'year'
    ? null
    : `a tax year is read with the format \`year\` (a year, or a date's), not \`${rule.format}\``;
}

/**
 * A target of the API's own words (WORD_TARGETS: proptype, ownerType) is given only those by the mapping: its
 * constant, its map's values, and its refinements' values and the values they refine (a cell the map does not name
 * is checked as it is read: apply-rules.ts).
 */
function wordsProblem(rule: FieldRule | undefined, words: ReadonlyMap<string, string>): string | null {
  if (!rule) return null;
  const given =
    'value' in rule
      ? [String(rule.value)]
      : 'column' in rule
        ? [...Object.values(rule.map ?? {}), ...(rule.refine ?? []).flatMap((r) => [...r.when, r.to])]
        : [];
  const wrong = [...new Set(given.filter((v) => !words.has(v.toUpperCase())))];
  return wrong.length === 0
    ? null
    : `${wrong.map((v) => `'${v}'`).join(', ')} ${wrong.length === 1 ? 'is not one' : 'are not'} of the records' values: ${[...words.values()].join(', ')}${wrong.includes('') ? " (a cell that means unknown goes in the rule's nullIf)" : ''}`;
}

/**
 * A refinement's value is read in its rule's format, as a cell would be: one the format cannot read would make each
 * row it refines an error. Any kind of mapping.
 */
function refinedValuesProblems(fields: Partial<Record<string, FieldRule>>, ctx: z.RefinementCtx): void {
  for (const [target, rule] of Object.entries(fields)) {
    if (!rule || !('column' in rule)) continue;
    for (const [i, r] of (rule.refine ?? []).entries()) {
      try {
        convert(r.to, rule.format);
      } catch (err) {
        ctx.addIssue({
          code: 'custom',
          path: ['fields', target, 'refine', i, 'to'],
          message: `${(err as Error).message} (the rule's format is ${rule.format})`,
        });
      }
    }
  }
}

/**
 * `fillOnly` is for a target whose one field is its own (FILL_ONLY_TARGETS): on a field made with another target's
 * (a lot's two areas, owners, mailing address, values, sales, coordinates), part of it would be kept and part
 * replaced. A required target always gives its field. A tract mapping has no parcel to fill.
 */
function fillOnlyProblems(
  fields: Partial<Record<string, FieldRule>>,
  kind: 'property' | 'tract',
  ctx: z.RefinementCtx,
) {
  for (const [target, rule] of Object.entries(fields)) {
    if (!rule || !isFillOnly(rule)) continue;
    const problem =
      kind === 'tract'
        ? '`fillOnly` applies to property mappings only'
        : !(FILL_ONLY_TARGETS as readonly string[]).includes(target)
          ? `\`fillOnly\` applies to ${FILL_ONLY_TARGETS.join(', ')}, targets that fill one field of their own`
          : 'required' in rule && rule.required
            ? '`fillOnly` and `required` contradict: a required value is always given'
            : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['fields', target, 'fillOnly'], message: problem });
  }
}

/** What a property mapping must read to find its parcels: an address in a place, or (joined) the key it joins on. */
function propertyFieldsProblem(m: { fields: PropertyFields; join?: Join | undefined }): string | null {
  const f = m.fields;
  if (m.join?.on === 'apn') return f.apn ? null : 'a mapping joined on apn needs apn';
  if (m.join?.on === 'address') return f.line1 ? null : 'a mapping joined on address needs line1';
  if (!f.line1) return 'a property mapping needs line1';
  const place = f.zip || f.cityStateZip || (f.city && f.state);
  return place ? null : 'a property mapping needs zip (or cityStateZip), or city and state';
}

export const Mapping = z.discriminatedUnion('kind', [
  z
    .object({
      name: z.string().regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes'),
      kind: z.literal('property'),
      description: z.string().optional(),
      delimiter: z.string().length(1).default(','),
      join: Join.optional(),
      /**
       * How APNs tell parcels apart: `stripped` (letters and digits: `015-0123-004` is `0150123004`) or `separators`
       * (the parts as written: Lebanon's `2-11` and `21-1` are two parcels that stripping would make one).
       */
      apnKey: z.enum(['stripped', 'separators']).default('stripped'),
      fields: z.partialRecord(z.enum(PROPERTY_TARGETS), FieldRule),
    })
    .strict()
    .superRefine((m, ctx) => {
      refinedValuesProblems(m.fields, ctx);
      const problem = propertyFieldsProblem(m);
      if (problem) ctx.addIssue({ code: 'custom', path: ['fields'], message: problem });
      fillOnlyProblems(m.fields, 'property', ctx);
      if (m.join && m.fields.taxParcelId)
        ctx.addIssue({
          code: 'custom',
          path: ['fields', 'taxParcelId'],
          message: "a joined file gives no taxParcelId: the parcel's id is its parcels file's",
        });
      for (const [target, rule] of Object.entries(m.fields)) {
        if (rule && 'column' in rule && rule.order && !NAME_TARGETS.has(target))
          ctx.addIssue({
            code: 'custom',
            path: ['fields', target],
            message: '`order` applies to cells of names only (ownerName, owner2Name, saleSeller)',
          });
        if (rule && 'column' in rule && rule.fallbackIf && !rule.fallback)
          ctx.addIssue({
            code: 'custom',
            path: ['fields', target, 'fallbackIf'],
            message: '`fallbackIf` says when the `fallback` column is read: the rule names none',
          });
        if (rule && 'column' in rule && rule.fallbackIf === 'street-line' && !STREET_LINE_TARGETS.has(target))
          ctx.addIssue({
            code: 'custom',
            path: ['fields', target, 'fallbackIf'],
            message: `\`fallbackIf: street-line\` reads a street line: for ${[...STREET_LINE_TARGETS].join(' and ')} only`,
          });
        if (rule && 'column' in rule && rule.add !== undefined && rule.format !== 'year')
          ctx.addIssue({
            code: 'custom',
            path: ['fields', target],
            message: '`add` applies to the format `year` only',
          });
      }
      for (const [target, words] of WORD_TARGETS) {
        const problem = wordsProblem(m.fields[target as keyof PropertyFields], words);
        if (problem) ctx.addIssue({ code: 'custom', path: ['fields', target], message: problem });
      }
      const taxYear = taxYearProblem(m.fields.taxYear);
      if (taxYear) ctx.addIssue({ code: 'custom', path: ['fields', 'taxYear'], message: taxYear });
      if (m.fields.bathsPartial && !m.fields.bathsTotal && !m.fields.bathsFull)
        ctx.addIssue({
          code: 'custom',
          path: ['fields', 'bathsPartial'],
          message: 'half bathrooms are read with the total (bathsTotal) or the full ones (bathsFull) of the same file',
        });
      if (m.fields.bathsTotal && m.fields.bathsFull)
        ctx.addIssue({
          code: 'custom',
          path: ['fields', 'bathsFull'],
          message:
            "bathsTotal is the file's own total, bathsFull the full bathrooms a total is made of: map one of them",
        });
    }),
  z
    .object({
      name: z.string().regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes'),
      kind: z.literal('tract'),
      description: z.string().optional(),
      delimiter: z.string().length(1).default(','),
      source: z.string().min(1).describe('Names the census data vintage, e.g. "Eviction Lab / ACS 5-year"'),
      fields: z.partialRecord(z.enum(TRACT_TARGETS), FieldRule).refine((f) => f.tract && f.vintageYear, {
        message: 'a tract mapping needs at least tract and vintageYear',
      }),
    })
    .strict()
    .superRefine((m, ctx) => {
      refinedValuesProblems(m.fields, ctx);
      fillOnlyProblems(m.fields, 'tract', ctx);
    }),
]);
export type Mapping = z.infer<typeof Mapping>;

export function loadMapping(path: string): Mapping {
  const text = readFileSync(path, 'utf8');
  const json = path.endsWith('.json');
  let raw: unknown;
  try {
    raw = json ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    // JSON.parse's `Unexpected end of JSON input` names neither the file nor that it is the mapping.
    throw new Error(`Mapping ${path} is not valid ${json ? 'JSON' : 'YAML'}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const result = Mapping.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(mapping)'}: ${i.message}`);
    throw new Error(`Mapping ${path} is invalid:\n${lines.join('\n')}`);
  }
  return result.data;
}
