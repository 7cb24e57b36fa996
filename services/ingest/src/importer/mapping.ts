// A mapping file says how a county extract's columns and value formats become record fields, so a new county's
// file loads without code changes. It is validated with zod before any row is read.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

export const VALUE_FORMATS = [
  'text',
  'upper',
  'integer',
  'number',
  'zip5',
  'zip4',
  'state',
  'date-iso',
  'date-us',
  'date-js',
  'percent-complement',
] as const;

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
  'buildingSqft',
  'beds',
  'bathsTotal',
  /** A cell that may hold one or two owners (rule option `order`); with owner2Name, both cells are read together. */
  'ownerName',
  'owner2Name',
  'ownerType',
  'saleDate',
  'salePrice',
  /** Further sales written in columns of the same row (Lebanon's prior sales): each one more sale of the history. */
  'sale2Date',
  'sale2Price',
  'sale3Date',
  'sale3Price',
  'sale4Date',
  'sale4Price',
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

/** The targets read as dates: a date that cannot be right (after tomorrow, before 1700) is refused as a value. */
export const DATE_TARGETS: ReadonlySet<string> = new Set([
  'saleDate',
  'sale2Date',
  'sale3Date',
  'sale4Date',
  'mortgageDate',
]);

/** How an owner cell writes a person's name: assessor rolls write LAST FIRST. */
export const OWNER_ORDERS = ['last-first', 'first-last'] as const;

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

const FieldRule = z.union([
  z
    .object({
      column: z.string().min(1),
      /** A column read when `column` is empty (a roll that writes a value in one of two places). */
      fallback: z.string().min(1).optional(),
      format: z.enum(VALUE_FORMATS).default('text'),
      /** Owner cells only: how a person's name is written. */
      order: z.enum(OWNER_ORDERS).optional(),
      /** Value translations applied before the format, e.g. {"Residential": "SFR"}. */
      map: z.record(z.string(), z.string()).optional(),
      /** Treat these raw values as missing (e.g. "0" for unknown beds). */
      nullIf: z.array(z.string()).default([]),
      required: z.boolean().default(false),
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
    })
    .strict(),
  z.object({ value: z.union([z.string(), z.number()]) }).strict(),
]);

const TEMPLATE_PART = /\{([^}:]+)(?::0(\d+))?\}/g;

/** The columns a template reads, in order: "{BOROUGH}-{BLOCK:05}" -> ["BOROUGH", "BLOCK"]. */
export function templateColumns(template: string): string[] {
  return [...template.matchAll(TEMPLATE_PART)].map((m) => m[1]!);
}

/** Fills a template from a row; '' when any of its columns is empty. */
export function fillTemplate(template: string, row: Record<string, string>): string {
  if (templateColumns(template).some((c) => (row[c] ?? '').trim() === '')) return '';
  return template.replace(TEMPLATE_PART, (_, c: string, width?: string) =>
    width ? row[c]!.trim().padStart(Number(width), '0') : row[c]!.trim(),
  );
}

/** Every column a mapping reads (to check a file's header before any row is read). */
export function mappingColumns(mapping: Mapping): string[] {
  return rulesColumns(Object.values(mapping.fields) as (FieldRule | undefined)[]);
}

function rulesColumns(rules: readonly (FieldRule | undefined)[]): string[] {
  const out = new Set<string>();
  for (const rule of rules) {
    if (!rule) continue;
    if ('column' in rule) out.add(rule.column);
    if ('column' in rule && rule.fallback) out.add(rule.fallback);
    if ('template' in rule) for (const c of templateColumns(rule.template)) out.add(c);
  }
  return [...out];
}

/** The targets a property's parcel is told by (import-merge.ts parcelIdentity): its APN, or else its address. */
const IDENTITY_TARGETS = {
  apn: ['apn', 'fips'],
  address: ['line1', 'line2', 'unit', 'zip', 'city', 'state', 'cityStateZip', 'fips'],
} as const;

/**
 * The columns whose cells tell a row's parcel: rows of one parcel have the same cells in them (the converse need not
 * hold: two ways of writing one APN are one parcel).
 */
export function identityColumns(mapping: Mapping & { kind: 'property' }): string[] {
  const fields = mapping.fields;
  return rulesColumns(IDENTITY_TARGETS[fields.apn ? 'apn' : 'address'].map((t) => fields[t]));
}
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
      const problem = propertyFieldsProblem(m);
      if (problem) ctx.addIssue({ code: 'custom', path: ['fields'], message: problem });
      for (const [target, rule] of Object.entries(m.fields))
        if (rule && 'column' in rule && rule.order && target !== 'ownerName' && target !== 'owner2Name')
          ctx.addIssue({ code: 'custom', path: ['fields', target], message: '`order` applies to owner cells only' });
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
    .strict(),
]);
export type Mapping = z.infer<typeof Mapping>;

export function loadMapping(path: string): Mapping {
  const text = readFileSync(path, 'utf8');
  const raw = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  const result = Mapping.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(mapping)'}: ${i.message}`);
    throw new Error(`Mapping ${path} is invalid:\n${lines.join('\n')}`);
  }
  return result.data;
}

const MONTHS: Record<string, string> = {
  JAN: '01',
  FEB: '02',
  MAR: '03',
  APR: '04',
  MAY: '05',
  JUN: '06',
  JUL: '07',
  AUG: '08',
  SEP: '09',
  OCT: '10',
  NOV: '11',
  DEC: '12',
};

/** Days in each month of a common year. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A day of the (proleptic Gregorian) calendar, as Date reads an ISO date: `y` four digits (every year 0000-9999 is
 * one), `m` and `d` one or two digits. Counted, not parsed by Date (a date or two a row of a county file).
 */
function validDate(raw: string, y: string, m: string, d: string): string {
  const iso = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
  if (days === undefined || day < 1 || day > days) throw new Error(`'${raw}' is not a calendar date`);
  return iso;
}

const NUMBER_MARKS = /[,$\s]/;

/** A number cell without its commas, dollar signs and spaces (most cells have none: no pass over them then). */
const numberText = (v: string) => (NUMBER_MARKS.test(v) ? v.replace(/[,$\s]/g, '') : v);

/** Applies one rule to a raw cell; throws an Error whose message says what is wrong with the value. */
export function convert(raw: string, format: (typeof VALUE_FORMATS)[number]): string | number {
  const v = raw.trim();
  switch (format) {
    case 'text':
      return v;
    case 'upper':
      return v.toUpperCase();
    case 'integer': {
      const digits = numberText(v);
      const n = Number(digits);
      if (digits === '' || !Number.isFinite(n)) throw new Error(`'${raw}' is not a number`);
      return Math.round(n);
    }
    case 'number': {
      const digits = numberText(v);
      const n = Number(digits);
      if (digits === '' || !Number.isFinite(n)) throw new Error(`'${raw}' is not a number`);
      return n;
    }
    case 'percent-complement': {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0 || n > 100) throw new Error(`'${raw}' is not a percentage`);
      return +(100 - n).toFixed(2);
    }
    case 'zip5': {
      const m = /^(\d{5})(-?\d{4})?$/.exec(v);
      if (!m) throw new Error(`'${raw}' is not a ZIP code`);
      return m[1]!;
    }
    case 'zip4': {
      if (!/^\d{4}$/.test(v)) throw new Error(`'${raw}' is not a ZIP+4 add-on`);
      return v;
    }
    case 'state': {
      if (!/^[A-Za-z]{2}$/.test(v)) throw new Error(`'${raw}' is not a two-letter state`);
      return v.toUpperCase();
    }
    case 'date-iso': {
      // 2019/09/03 17:33:04+00 too: the calendar date as written.
      const m = /^(\d{4})[-/](\d{2})[-/](\d{2})/.exec(v);
      if (!m) throw new Error(`'${raw}' is not a YYYY-MM-DD date`);
      return validDate(raw, m[1]!, m[2]!, m[3]!);
    }
    case 'date-us': {
      const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
      if (!m) throw new Error(`'${raw}' is not an MM/DD/YYYY date`);
      return validDate(raw, m[3]!, m[1]!, m[2]!);
    }
    case 'date-js': {
      // "Wed May 21 00:00:00 EDT 2008": the calendar date as written, whatever the zone.
      const m = /^[A-Za-z]{3} ([A-Za-z]{3}) (\d{1,2}) [\d:]+ [A-Z]{2,5} (\d{4})$/.exec(v);
      const month = m ? MONTHS[m[1]!.toUpperCase()] : undefined;
      if (!m || !month) throw new Error(`'${raw}' is not a date like 'Wed May 21 00:00:00 EDT 2008'`);
      return validDate(raw, m[3]!, month, m[2]!);
    }
  }
}
