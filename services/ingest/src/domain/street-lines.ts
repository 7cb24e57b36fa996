// Street lines parsed lately, shared by the steps of a load: a row's site line is parsed to find its parcel, again to
// render its record, to compare it with the mailing line (absentee) and to write its keys, and its mailing line to
// render the record and to key its owner. Parsing is pure, so each line is parsed once while it is recent; the
// results are read, never changed, by every caller. Bounded: the cache starts over when full.
import { parseStreetLine, type StreetLine } from '@pra/core/address';

const MAX_LINES = 20_000;
const parsed = new Map<string, StreetLine>();

/** parseStreetLine(line), from the cache when the line was parsed lately. */
export function parsedStreetLine(line: string): StreetLine {
  let s = parsed.get(line);
  if (s === undefined) {
    if (parsed.size >= MAX_LINES) parsed.clear();
    s = parseStreetLine(line);
    parsed.set(line, s);
  }
  return s;
}
