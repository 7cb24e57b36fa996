// Street lines parsed lately, shared by the steps of a load: a row's site line is parsed to find its parcel, again to
// render its record, to compare it with the mailing line (absentee) and to write its keys, and its mailing line to
// render the record and to key its owner. Parsing is pure, so each line is parsed once while it is recent; the
// results are read, never changed, by every caller. Bounded, in two generations: when the newer one is full it becomes
// the older, and a line found only in the older is moved up. A batch's lines are parsed when the batch is parsed and
// read again when it is built, a few batches later (the pipeline keeps several in flight): starting over when full
// lost two thirds of those (measured on Philadelphia x20 in an import worker), and they were parsed twice.
import { parseStreetLine, type StreetLine } from '@pra/core/address';
import { CLOSING_WORDS, COMPANY_SUFFIXES } from './owner-words.js';

/**
 * A cache of `parse` keeping the lines of the last one to two `generation`s of distinct lines asked: a line asked again
 * within `generation` other lines is never parsed again.
 */
export function recentLines<T>(generation: number, parse: (line: string) => T): (line: string) => T {
  let newer = new Map<string, T>();
  let older = new Map<string, T>();
  return (line) => {
    let s = newer.get(line);
    if (s !== undefined) return s;
    s = older.get(line) ?? parse(line);
    if (newer.size >= generation) {
      older = newer;
      newer = new Map();
    }
    newer.set(line, s);
    return s;
  };
}

/**
 * parseStreetLine(line), from the cache when the line was parsed lately: a generation holds a few batches' worth of
 * site and mailing lines (2,000 rows a batch, two lines a row).
 */
export const parsedStreetLine: (line: string) => StreetLine = recentLines(20_000, parseStreetLine);

/** "123 N MAIN ST APT 4": line1 with the unit, as parsed for keys and shown on one line. */
export function streetWithUnit(p: { line1: string; line2: string }): string {
  return p.line2 ? `${p.line1} ${p.line2}` : p.line1;
}

/** A post office box as a mailing line writes it: `PO BOX 12`, `P.O. BOX 12`, `BOX 12` (a number: `BOX JOHN` is a name). */
const PO_BOX = /^(P\s*\.?\s*O\s*\.?\s*)?BOX\s+#?\d/i;

/**
 * Words of an owner's name, not of a street: a company's or a trust's (`6808 RIDGE HOLDINGS LLC`, `1234 PINE ST REV
 * TR`), an association's (`1234 SPRUCE ST UNIT OWNERS ASSOC`), an estate's. A street that has one (`12 TRUST ST`)
 * is missed.
 */
const NAME_WORDS = new Set([
  ...COMPANY_SUFFIXES,
  ...CLOSING_WORDS,
  'ASSOC',
  'ASSN',
  'ASSOCIATION',
  'ASSOCIATES',
  'OWNERS',
  'HOMEOWNERS',
  'REV',
  'REVOCABLE',
  'HEIRS',
  'ESTATE',
]);

/**
 * A cell that reads as a mailing street line (a rule's `fallbackIf: "street-line"`): a house number and a street with
 * its type (`1623 RIDGE AVE.`, `1100 LUDLOW ST, 7TH FLOOR`), or a post office box with its number. Not a person's or
 * a company's name (`DUFFEY DANIEL EDWARD`, `BOX JOHN`; `6808 RIDGE HOLDINGS LLC`, number-led but with a company's
 * word), a building's (`MUNICIPAL SERVICES BLDG`), a unit alone (`STE 600`) or a number alone (`1719`). A street
 * without a type (`100 BROADWAY`) is not told from a name, and is not read: a line missed, never a name taken for one.
 */
export function readsAsStreetLine(cell: string): boolean {
  const line = cell.trim().replace(/\s+/g, ' ').toUpperCase();
  if (
    line
      .replace(/[.,']/g, '')
      .split(' ')
      .some((w) => NAME_WORDS.has(w))
  )
    return false;
  if (PO_BOX.test(line)) return true;
  const street = parsedStreetLine(line);
  return street.houseNumber !== null && street.streetType !== '';
}
