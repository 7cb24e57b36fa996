// A mapping's rules applied to one row's cells, and what each target made of the file: cells filled, empty and
// refused, with the first few reasons (the import report). A value that cannot be read makes its row an error; a
// date that cannot be right (after tomorrow, before 1700: a roll's century error, a placeholder), a tax year (after
// next year, before 1700), or a property or owner type that is not one of the API's (a class code the mapping does
// not name), is refused as a value: the row goes without it, and the cell is reported by line and column (a row that
// is an error for another reason reports that error alone).
import { readsAsStreetLine } from '../domain/street-lines.js';
import type { FALLBACK_KINDS, FieldRule } from './mapping.js';
import { compileTemplate, convert, DATE_TARGETS, WORD_TARGETS, YEAR_TARGETS } from './mapping-rules.js';

export type Value = string | number | null | undefined;
export type Values = Record<string, Value>;

export interface TargetCounts {
  filled: number;
  empty: number;
  refused: number;
  /** The first few refusals, with their line. */
  reasons: string[];
}
/** Per target of the mapping. */
export type FieldReport = Record<string, TargetCounts>;

/** How many reasons a target keeps for the report. */
export const REASONS_KEPT = 3;

export interface RuleContext {
  line: number;
  /** The latest date a date target may hold (YYYY-MM-DD): tomorrow, as the import sees it. */
  latestDate: string;
  /** What each target made of the cells of every row the rules are applied to, errors too (see subtractReport). */
  report?: FieldReport;
  /**
   * How many reasons a target keeps in `report`: REASONS_KEPT, or more where some rows' counts may be taken out later
   * (subtractReport), so that the first REASONS_KEPT of the rows left are still there. A row gives a target at most
   * one reason.
   */
  reasonsKept?: number;
  /** Values refused (the row goes without them), by line: the importer keeps those of rows that are not errors. */
  refusals?: { line: number; reason: string }[];
}

export const EARLIEST_DATE = '1700-01-01';

/** Tomorrow's date (UTC) of an ISO instant: a date after it cannot have happened yet, in any US time zone. */
export function latestDateOf(now: string): string {
  return new Date(Date.parse(now) + 86_400_000).toISOString().slice(0, 10);
}

/** Why a date cannot be right, or null. */
const wrongDate = (date: string, latestDate: string) =>
  date > latestDate ? 'is after tomorrow' : date < EARLIEST_DATE ? 'is before 1700' : null;

const EARLIEST_YEAR = Number(EARLIEST_DATE.slice(0, 4));

/**
 * The latest year a tax year may be: next year, the one after today's (UTC: the day before `latestDate`), so not two
 * years on from a December 31st. Worked out once an import (its rows share `latestDate`), not once a row.
 */
let latestYear = { latestDate: '', year: 0 };
function latestYearOf(latestDate: string): number {
  if (latestYear.latestDate !== latestDate) {
    const today = new Date(Date.parse(latestDate) - 86_400_000).toISOString();
    latestYear = { latestDate, year: Number(today.slice(0, 4)) + 1 };
  }
  return latestYear.year;
}

/** Why a year cannot be right (YEAR_TARGETS), or null: next year's is a tax year a county may have set already. */
const wrongYear = (year: number, latestDate: string) =>
  year > latestYearOf(latestDate) ? 'is after next year' : year < EARLIEST_YEAR ? 'is before 1700' : null;

function countsOf(report: FieldReport, target: string): TargetCounts {
  let c = report[target];
  if (c === undefined || c === null) {
    c = { filled: 0, empty: 0, refused: 0, reasons: [] };
    report[target] = c;
  }
  return c;
}

function count(ctx: RuleContext | undefined, target: string, what: 'filled' | 'empty' | 'refused', reason?: string) {
  if (!ctx?.report) return;
  const c = countsOf(ctx.report, target);
  c[what]++;
  // A batch's rows are counted with every reason kept (import-work.ts), and the import's report keeps the first
  // lines' (addReport); a file read in its order alone (tracts) keeps the first few as it goes.
  if (reason && c.reasons.length < (ctx.reasonsKept ?? REASONS_KEPT)) c.reasons.push(reason);
}

/** The line a reason names (each begins `line N`). */
function lineOfReason(reason: string): number {
  const m = /^line (\d+)/.exec(reason);
  return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
}

/**
 * A target's reasons by line, the first `keep`: an import's rows are worked out of the file's order where a parcel's
 * rows apart are held back to its end (held-rows.ts), and the report lists the first lines' reasons whatever the
 * order (as the summary's errors and refusals).
 */
function keepFirstLines(reasons: string[], keep: number): void {
  reasons.sort((a, b) => lineOfReason(a) - lineOfReason(b));
  if (reasons.length > keep) reasons.length = keep;
}

/** One rule of a mapping as applyCompiled applies it, what it needs of the rule worked out once (not once a row). */
interface CompiledRule {
  target: string;
  rule: FieldRule;
  /** The rule's constant ('value' rules). */
  value: Value;
  /** The cell of the rule's column in a record ('column' rules), -1 for a template or a value. */
  cell: number;
  /** The cell of its fallback column, -1 when none. */
  fallbackCell: number;
  /** The rule's `fallbackIf`: whether the fallback's cell is of the kind it reads; null: any cell is. */
  fallbackIf: ((cell: string) => boolean) | null;
  /** A template's fill, null for a column or a value. */
  template: ((cells: readonly string[]) => string) | null;
  /** The column's name as reasons quote it, or the template's. */
  source: string;
  fallbackSource: string;
  nullIf: readonly string[];
  /** The target is a date (DATE_TARGETS). */
  date: boolean;
  /** The target is a year (YEAR_TARGETS). */
  year: boolean;
  /** Years added to a year read (the rule's `add`), 0 for none. */
  add: number;
  /** The words a value of the target must be (WORD_TARGETS: upper case to the word), null for any value. */
  words: ReadonlyMap<string, string> | null;
  /** Those words as a refusal names them (made once, not at each refusal). */
  wordList: string;
  /** The rule's refinements, their cells found (empty when it has none). */
  refine: readonly CompiledRefinement[];
}

interface CompiledRefinement {
  /** Upper case: a value is compared in upper case. */
  when: ReadonlySet<string>;
  cell: number;
  fallbackCell: number;
  /** Upper case: a cell is compared in upper case. */
  startsWith: readonly string[];
  to: string;
}

/** The value a rule's refinements make of `value` (its `map`'s, or the cell's), from the row's other cells. */
function refined(refine: readonly CompiledRefinement[], value: string, cells: readonly string[]): string {
  const upperValue = value.toUpperCase();
  for (const r of refine) {
    if (!r.when.has(upperValue)) continue;
    let cell = cells[r.cell]!.trim();
    if (cell === '' && r.fallbackCell >= 0) cell = cells[r.fallbackCell]!.trim();
    const upper = cell.toUpperCase();
    if (upper !== '' && r.startsWith.some((p) => upper.startsWith(p))) return r.to;
  }
  return value;
}

/** What each kind of a rule's `fallbackIf` reads of the fallback's cell. */
const FALLBACK_TESTS: Record<(typeof FALLBACK_KINDS)[number], (cell: string) => boolean> = {
  'street-line': readsAsStreetLine,
};

/** A mapping's rules, in its order, for applyCompiled: compiled once for a file's rows. */
export interface CompiledRules {
  rules: readonly CompiledRule[];
  /**
   * A row's values before the rules fill them: every target, null. Each row's values are a copy of it, an object of
   * the same fast shape, where values set one target at a time by name (a mapping has 25 or 30) turn the object into
   * a hash table after the first dozen, and every read of a value (toParcel reads ~50) into a lookup in it.
   */
  blank: Values;
}

/**
 * The rules compiled against a file's header: each reads its cells of a record by index (a record's cells as the
 * reader gives them, in header order). A column named twice in the header is read from its last cell, as the
 * reader's cell mask reads it (csv-records.ts cellMask). The import checks the header has every column the mapping
 * reads before any row is read.
 */
export function compileRules(fields: Partial<Record<string, FieldRule>>, header: readonly string[]): CompiledRules {
  const rules: CompiledRule[] = [];
  const indexOf = (column: string) => header.lastIndexOf(column);
  for (const [target, rule] of Object.entries(fields)) {
    if (!rule) continue;
    const words = WORD_TARGETS.get(target) ?? null;
    rules.push({
      target,
      rule,
      // A word's constant as the list writes it (mapping.ts checked it is one, in any case).
      value: 'value' in rule ? (words?.get(String(rule.value).toUpperCase()) ?? rule.value) : null,
      cell: 'column' in rule ? indexOf(rule.column) : -1,
      fallbackCell: 'column' in rule && rule.fallback ? indexOf(rule.fallback) : -1,
      fallbackIf: 'column' in rule && rule.fallbackIf ? FALLBACK_TESTS[rule.fallbackIf] : null,
      template: 'template' in rule ? compileTemplate(rule.template, indexOf) : null,
      source: 'value' in rule ? '' : `'${'column' in rule ? rule.column : rule.template}'`,
      fallbackSource: 'column' in rule && rule.fallback ? `'${rule.fallback}'` : '',
      nullIf: 'value' in rule ? [] : rule.nullIf,
      date: DATE_TARGETS.has(target),
      year: YEAR_TARGETS.has(target),
      add: 'column' in rule ? (rule.add ?? 0) : 0,
      words,
      wordList: words === null ? '' : [...words.values()].join(', '),
      refine: ('column' in rule ? (rule.refine ?? []) : []).map((r) => ({
        when: new Set(r.when.map((w) => w.toUpperCase())),
        cell: indexOf(r.column),
        fallbackCell: r.fallback ? indexOf(r.fallback) : -1,
        startsWith: r.startsWith.map((p) => p.toUpperCase()),
        to: r.to,
      })),
    });
  }
  // Made by JSON.parse, which gives an object of a fast shape (a copy of it by spread keeps that shape).
  const blank = JSON.parse(JSON.stringify(Object.fromEntries(rules.map((r) => [r.target, null])))) as Values;
  return { rules, blank };
}

/** The rules applied to one row keyed by column name, compiled for it alone (tests; an import compiles them once). */
export function applyRules(fields: Partial<Record<string, FieldRule>>, row: Record<string, string>, ctx?: RuleContext) {
  return applyCompiled(compileRules(fields, Object.keys(row)), Object.values(row), ctx);
}

/** The rules (compileRules) applied to a record's cells, in the order of the header they were compiled against. */
export function applyCompiled({ rules, blank }: CompiledRules, cells: readonly string[], ctx?: RuleContext) {
  const out: Values = { ...blank };
  for (let r = 0; r < rules.length; r++) {
    const c = rules[r]!;
    const { target, rule } = c;
    if ('value' in rule) {
      out[target] = c.value;
      count(ctx, target, 'filled');
      continue;
    }
    let source = c.source;
    let raw = c.template !== null ? c.template(cells) : cells[c.cell]!.trim();
    if (c.fallbackCell >= 0 && (raw === '' || c.nullIf.includes(raw))) {
      const other = cells[c.fallbackCell]!.trim();
      if (c.fallbackIf === null || c.fallbackIf(other)) {
        source = c.fallbackSource;
        raw = other;
      }
    }
    if (raw === '' || c.nullIf.includes(raw)) {
      if (rule.required) {
        count(ctx, target, 'refused', `line ${ctx?.line}: ${source} is empty`);
        throw new Error(`${target} (${source}) is empty`);
      }
      out[target] = null;
      count(ctx, target, 'empty');
      continue;
    }
    // The map's own entries only: a cell 'constructor' or '__proto__' is not a name of Object.prototype's.
    if ('map' in rule && rule.map && Object.hasOwn(rule.map, raw)) raw = rule.map[raw]!;
    if (c.refine.length > 0) raw = refined(c.refine, raw, cells);
    let value: string | number;
    try {
      value = convert(raw, rule.format);
    } catch (err) {
      const reason = `${target} (${source}): ${(err as Error).message}`;
      count(ctx, target, 'refused', `line ${ctx?.line}: ${reason}`);
      throw new Error(reason);
    }
    if (c.add !== 0 && typeof value === 'number') value += c.add;
    if (c.words !== null) {
      const word = c.words.get(String(value).toUpperCase());
      if (word === undefined) {
        const what = `${target} '${value}' is not one of ${c.wordList}${'column' in rule ? ": name it in the rule's map" : ''}`;
        refuse(ctx, target, source, what);
        out[target] = null;
        continue;
      }
      value = word;
    }
    if (ctx && ((c.date && typeof value === 'string') || (c.year && typeof value === 'number'))) {
      const wrong = c.date ? wrongDate(value as string, ctx.latestDate) : wrongYear(value as number, ctx.latestDate);
      if (wrong) {
        // A year made with `add` names the cell it was made from.
        refuse(ctx, target, source, `${target} ${value}${c.add !== 0 ? ` (from '${raw}')` : ''} ${wrong}`);
        out[target] = null;
        continue;
      }
    }
    out[target] = value;
    count(ctx, target, 'filled');
  }
  return out;
}

/**
 * A value refused (`what`: the target, the value, why): its row goes without it. Counted and reported by line and
 * column; the importer drops it from the refused values of a row that turns out to be an error.
 */
function refuse(ctx: RuleContext | undefined, target: string, source: string, what: string): void {
  if (!ctx) return;
  const reason = `column ${source}: ${what} (not stored)`;
  count(ctx, target, 'refused', `line ${ctx.line}, ${reason}`);
  ctx.refusals?.push({ line: ctx.line, reason });
}

/** Adds one batch's report to the import's. */
export function addReport(into: FieldReport, from: FieldReport): void {
  for (const [target, c] of Object.entries(from)) {
    const t = countsOf(into, target);
    t.filled += c.filled;
    t.empty += c.empty;
    t.refused += c.refused;
    if (c.reasons.length === 0) continue;
    for (const r of c.reasons) t.reasons.push(r);
    keepFirstLines(t.reasons, REASONS_KEPT);
  }
}

/**
 * Takes from `into` what `from` counted: the cells of rows that turned out to be errors, counted again on their own
 * with every reason (reportOfRows). The counts left are the other rows'. So are the reasons, where `into` was counted
 * keeping room for the error rows' (RuleContext's reasonsKept: a row gives a target one reason at most): a reason is
 * taken out by its text (its line makes it the row's own), and `into` keeps the first `keep` of those left (all,
 * where more rows may be taken out later).
 */
export function subtractReport(into: FieldReport, from: FieldReport, keep = REASONS_KEPT): void {
  for (const [target, c] of Object.entries(from)) {
    const t = into[target];
    if (!t) continue;
    t.filled -= c.filled;
    t.empty -= c.empty;
    t.refused -= c.refused;
    for (const r of c.reasons) {
      const at = t.reasons.indexOf(r);
      if (at >= 0) t.reasons.splice(at, 1);
    }
  }
  for (const t of Object.values(into)) if (t.reasons.length > keep) keepFirstLines(t.reasons, keep);
}

/**
 * The report of some rows alone (`records`: each row's cells and line), every reason kept: rows that turned out to be
 * errors, whose counts are then taken out of the report they were counted in (subtractReport). The rules are pure:
 * applied to the same cells they count the same, up to where they failed if they did.
 */
export function reportOfRows(
  rules: CompiledRules,
  records: Iterable<{ cells: readonly string[]; line: number }>,
  latestDate: string,
): FieldReport {
  const report: FieldReport = {};
  const ctx: RuleContext = { line: 0, latestDate, report, reasonsKept: Number.POSITIVE_INFINITY };
  for (const { cells, line } of records) {
    ctx.line = line;
    try {
      applyCompiled(rules, cells, ctx);
    } catch {
      // It failed there the first time too: what it counted up to there is counted.
    }
  }
  return report;
}

/** The report as lines to print: one per target, in the mapping's order. */
export function formatReport(report: FieldReport, targets: readonly string[]): string[] {
  const width = Math.max(6, ...targets.map((t) => t.length));
  const n = (x: number) => x.toLocaleString('en-US').padStart(8);
  const lines = [`${'target'.padEnd(width)}   filled    empty  refused`];
  for (const t of targets) {
    const c = report[t] ?? { filled: 0, empty: 0, refused: 0, reasons: [] };
    lines.push(`${t.padEnd(width)} ${n(c.filled)} ${n(c.empty)} ${n(c.refused)}`);
    for (const r of c.reasons) lines.push(`${''.padEnd(width)}   refused: ${r}`);
  }
  return lines;
}
