// A street's type glued to the directional after it (Lebanon's `7 GREEN STWEST`), parted before a line is parsed.
import { SUFFIX_ABBREVIATIONS } from './usps-tables.js';

/**
 * A street's type glued to the directional after it, as Lebanon's roll writes `7 GREEN STWEST` (76 rows; their
 * owners' mailing lines write `7 GREEN ST WEST`), parted: the line then reads as a street with its type and
 * directional (its keys, its ZIP evidence, its absentee flag). Only a common type's abbreviation (GLUED_TYPES) before
 * a whole directional word, with no type after it: `BANKNORTH`, `NORTHEAST`, `KEYWEST`, `BREAST`, `100 PARKWEST DR`,
 * `40 STWEST DR.` stay as written. The importer reads a site's line, a joined file's and a mailing line so; a lookup,
 * the line asked.
 */
export function unglued<T extends string | null | undefined>(line: T): T {
  if (!line || !HAS_GLUED_DIRECTIONAL.test(line)) return line;
  return line.replace(GLUED_DIRECTIONAL, (glued, type: string, direction: string, next: string) =>
    GLUED_TYPES.has(type.toUpperCase()) && !SUFFIX_ABBREVIATIONS.has(next.toUpperCase())
      ? `${type} ${direction}`
      : glued,
  ) as T;
}
/** Types a roll glues to a directional: abbreviations no name begins with (not KEY, PARK, LAKE, BR...). */
const GLUED_TYPES = new Set(['ST', 'AVE', 'AV', 'RD', 'DR', 'LN', 'CT', 'PL', 'CIR', 'BLVD', 'TER', 'HWY', 'PKWY']);
// The word after it read by a lookahead (no slice of the line a match: linear in the line's length).
const GLUED_DIRECTIONAL = /\b([A-Z]{2,4})(NORTH|SOUTH|EAST|WEST)\b(?=[^A-Z0-9]*([A-Z]*))/gi;
/** The same, tested without a global pattern's lastIndex (most lines have none). */
const HAS_GLUED_DIRECTIONAL = /[A-Z]{2}(?:NORTH|SOUTH|EAST|WEST)\b/i;
