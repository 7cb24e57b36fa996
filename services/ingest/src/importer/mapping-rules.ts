// A mapping's rules as an import applies them: the columns a mapping reads, what a rule reads of a row, and how a cell
// becomes a value. Without zod or YAML (mapping.ts validates and loads a mapping file): an import's worker threads load
// this, not mapping.ts (import-worker-modules.test.ts says why).
import { OWNER_TYPES, PROPERTY_TYPES } from '@pra/core/vocabulary';
import type { FieldRule, Mapping } from './mapping.js';

/** A rule whose file gives its field only to a parcel that has none (rule option `fillOnly`). */
export const isFillOnly = (rule: FieldRule): boolean => 'fillOnly' in rule && rule.fillOnly === true;

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
  /** A year: written alone (`2025`), or the year of a date (`2022-05-24`, `2022/05/24`, `05/24/2022`). */
  'year',
  'percent-complement',
] as const;

/** The targets read as dates: a date that cannot be right (after tomorrow, before 1700) is refused as a value. */
export const DATE_TARGETS: ReadonlySet<string> = new Set([
  'saleDate',
  'saleRecordingDate',
  'sale2Date',
  'sale3Date',
  'sale4Date',
  'mortgageDate',
]);

/**
 * The targets read as years, refused as values the same way when they cannot be right: before 1700, or after next
 * year (a county certifies values in the spring for the next tax year: Philadelphia's of May 2022 are tax year 2023).
 */
export const YEAR_TARGETS: ReadonlySet<string> = new Set(['taxYear']);

/** Each word of a list by its upper case. */
const wordsOf = (words: readonly string[]): ReadonlyMap<string, string> =>
  new Map(words.map((w) => [w.toUpperCase(), w]));
/**
 * The targets whose values are words of the API's own, the property types and the owner types (read in any case,
 * stored as the list writes them), each by its upper case: another value (a class code the mapping's `map` does not
 * name) is refused as a value, as a date that cannot be right is (apply-rules.ts), and reported, so that no record
 * shows a type no area-search filter names, nor an owner type of no list.
 */
export const WORD_TARGETS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  ['proptype', wordsOf(PROPERTY_TYPES)],
  ['ownerType', wordsOf(OWNER_TYPES)],
]);

const TEMPLATE_PART = /\{([^}:]+)(?::0(\d+))?\}/g;

/** The columns a template reads, in order: "{BOROUGH}-{BLOCK:05}" -> ["BOROUGH", "BLOCK"]. */
export function templateColumns(template: string): string[] {
  return [...template.matchAll(TEMPLATE_PART)].map((m) => m[1]!);
}

/**
 * A template compiled against a header: it fills from a record's cells (by index), '' when any of its columns is
 * empty. `indexOf`: a column's cell in the record.
 */
export function compileTemplate(
  template: string,
  indexOf: (column: string) => number,
): (cells: readonly string[]) => string {
  const parts: (string | { cell: number; width: number })[] = [];
  let at = 0;
  for (const m of template.matchAll(TEMPLATE_PART)) {
    parts.push(template.slice(at, m.index));
    parts.push({ cell: indexOf(m[1]!), width: m[2] ? Number(m[2]) : 0 });
    at = m.index + m[0].length;
  }
  parts.push(template.slice(at));
  return (cells) => {
    let out = '';
    for (const p of parts) {
      if (typeof p === 'string') {
        out += p;
        continue;
      }
      const v = (cells[p.cell] ?? '').trim();
      if (v === '') return '';
      out += p.width > 0 ? v.padStart(p.width, '0') : v;
    }
    return out;
  };
}

/** Every column a mapping reads: a file's header is checked for them before any row is read, and only their cells read. */
export function mappingColumns(mapping: Mapping): string[] {
  return rulesColumns(Object.values(mapping.fields) as (FieldRule | undefined)[]);
}

function rulesColumns(rules: readonly (FieldRule | undefined)[]): string[] {
  const out = new Set<string>();
  for (const rule of rules) {
    if (!rule) continue;
    if ('column' in rule) out.add(rule.column);
    if ('column' in rule && rule.fallback) out.add(rule.fallback);
    if ('column' in rule)
      for (const r of rule.refine ?? []) {
        out.add(r.column);
        if (r.fallback) out.add(r.fallback);
      }
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

/** YYYY-MM-DD, and 2019/09/03 17:33:04+00 too: the calendar date as written. */
const ISO_DATE = /^(\d{4})[-/](\d{2})[-/](\d{2})/;
/** MM/DD/YYYY, the month and day one or two digits. */
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

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
      const m = ISO_DATE.exec(v);
      if (!m) throw new Error(`'${raw}' is not a YYYY-MM-DD date`);
      return validDate(raw, m[1]!, m[2]!, m[3]!);
    }
    case 'date-us': {
      const m = US_DATE.exec(v);
      if (!m) throw new Error(`'${raw}' is not an MM/DD/YYYY date`);
      return validDate(raw, m[3]!, m[1]!, m[2]!);
    }
    case 'year': {
      if (/^\d{4}$/.test(v)) return Number(v);
      const iso = ISO_DATE.exec(v);
      const us = iso ? null : US_DATE.exec(v);
      if (iso) return Number(validDate(raw, iso[1]!, iso[2]!, iso[3]!).slice(0, 4));
      if (us) return Number(validDate(raw, us[3]!, us[1]!, us[2]!).slice(0, 4));
      throw new Error(`'${raw}' is not a year or a date with one`);
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
