// Which of a postal city's ZIPs hold an address asked by that city (find-records.ts findByAddress's second look,
// where the city as the records name it held nothing): the ZIP found is then read by every rule of a lookup by ZIP.
import type { AddressCriteria, NumberedLineIn, NumberedLines, RecordStore } from '../data/record-queries.js';
import type { Run } from './lookup-deadline.js';
import { oneLetterOffRule, postDirectionalKeys, splitLooseKey } from './spelling-rules.js';

/** The ZIPs found (at most 3, in order), and how. */
export interface PostalZips {
  zips: string[];
  /** `stored`: the address, or a spelling of it, is stored there; `near`: a street one letter off it. */
  how: 'stored' | 'near';
  /** False when a near street was found among more lines of the number than are compared (NumberedLines.more). */
  sure: boolean;
}

/**
 * The ZIPs of `zips` (in `state`) holding the address, in the tiers a lookup by ZIP reads: the loose keys of its
 * readings and of the stored lines that may hold its unit (`unitLines`); else its spellings (its last word as the
 * name's, its post-directional on one side only: another directional only where none was asked, as
 * spelling-reads.ts reads them); else, for a reading that may be a slip, a street one letter off with its number.
 * One statement for each tier read, one a house number for the slips (two for `123-N X St`: 123 and 123N).
 */
export async function postalZipsHolding(
  store: RecordStore,
  readings: readonly AddressCriteria[],
  unitLines: readonly AddressCriteria[],
  zips: readonly string[],
  state: string,
  run: Run,
): Promise<PostalZips> {
  const holding = async (keys: Set<string>) =>
    keys.size === 0 ? [] : await run(() => store.zipsHolding([...keys], zips, state));
  const own = await holding(new Set([...readings, ...unitLines].map((r) => r.looseKey)));
  if (own.length > 0) return { zips: own, how: 'stored', sure: true };
  const spellings = new Set<string>();
  for (const r of readings) {
    if (r.looseKeyUntyped !== null) spellings.add(r.looseKeyUntyped);
    const variants = postDirectionalKeys(r);
    if (variants === null) continue;
    if (variants.plain !== null) spellings.add(variants.plain);
    else for (const k of variants.others) spellings.add(k);
  }
  const spelt = await holding(spellings);
  if (spelt.length > 0) return { zips: spelt, how: 'stored', sure: true };
  const near = new Set<string>();
  let sure = true;
  const numbered = new Map<string, NumberedLines<NumberedLineIn>>();
  for (const r of readings) {
    const rule = r.slips ? oneLetterOffRule(r) : null;
    if (rule === null) continue;
    const { house } = splitLooseKey(r.looseKey);
    if (!numbered.has(house)) numbered.set(house, await run(() => store.numberedLinesIn(zips, house)));
    const { lines, more } = numbered.get(house)!;
    const before = near.size;
    for (const l of lines) if (l.state === state && rule(l)) near.add(l.zip);
    if (near.size > before && more) sure = false;
  }
  return { zips: [...near].sort().slice(0, 3), how: 'near', sure };
}
