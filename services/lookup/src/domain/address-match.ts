// How an address answer matched the line asked (`status.match`): the parts the input was read as, the parts of the
// stored line that answered, which of them differed, and one word for the whole. Computed from the line as parsed and
// the stored line the lookup chose, never from the records' bodies, so a repeat can store and send it again as is.
import { DIRECTIONALS, parseStreetLine, type StreetLine, tokenize } from '@pra/core/address';
import type { AddressMatch, AddressParts, MatchType } from '@pra/core/contracts';

const STANDARD_DIRECTIONALS: ReadonlySet<string> = new Set(DIRECTIONALS.values());

/** The parts of a parsed line; `unit` is the unit key, null when none is named. */
export function partsOf(line: StreetLine, unit: string | null): AddressParts {
  const words = line.streetKey.split(' ').filter((w) => w !== '');
  const post = line.postDirectional !== '' && words.at(-1) === line.postDirectional ? words.pop()! : null;
  const suffix = line.streetType !== '' && words.at(-1) === line.streetType ? words.pop()! : null;
  const pre = words.length > 1 && STANDARD_DIRECTIONALS.has(words[0]!) ? words.shift()! : null;
  return {
    number: line.houseNumber,
    predirectional: pre,
    street: words.join(' '),
    suffix,
    postdirectional: post,
    unit,
  };
}

const PART_ORDER: readonly (keyof AddressParts)[] = [
  'number',
  'predirectional',
  'street',
  'suffix',
  'postdirectional',
  'unit',
];

/** What the query asked, as its first reading parsed it, and how it was written. */
export interface AskedAddress {
  /** The line as written (the `number` parameter put in front when the address had none). */
  written: string;
  parsed: StreetLine;
  /** The unit asked ("" for none; "?" for a designator without its number). */
  unitKey: string;
}

/**
 * The match of an answer: the stored line that answered (`line`, a line key) and the unit it answered with (the asked
 * unit, null for every unit at the line or for the building's own record when the unit asked is not stored).
 */
export function describeMatch(asked: AskedAddress, line: string, unit: string | null): AddressMatch {
  // A designator without its number ("100 MAIN ST UNIT") asks for a unit it does not name: "".
  const input = partsOf(asked.parsed, asked.unitKey === '' ? null : asked.parsed.unitUnnamed ? '' : asked.unitKey);
  // The asked line itself answered (nearly always): its parse serves; another stored line is parsed for its parts.
  const matched = partsOf(line === asked.parsed.lineKey ? asked.parsed : parseStreetLine(line), unit);
  const differed = PART_ORDER.filter((p) => input[p] !== matched[p]);
  return { type: matchType(asked, input, differed), input, matched, differed };
}

function matchType(asked: AskedAddress, input: AddressParts, differed: (keyof AddressParts)[]): MatchType {
  const others = differed.filter((p) => p !== 'suffix' && p !== 'unit');
  if (others.length > 0) return 'corrected';
  // The unit asked is not a record: the building's record answers (a unit read out of another part is 'corrected').
  if (differed.includes('unit')) return input.unit !== null ? 'building' : 'corrected';
  if (differed.includes('suffix')) return 'type_inferred';
  return asWritten(asked) ? 'exact' : 'standardized';
}

/** The line was written as stored: the same words once case, periods and commas are set aside. */
function asWritten(asked: AskedAddress): boolean {
  const p = asked.parsed;
  const unit = p.unitKey === '' ? '' : ` ${p.unitDesignator ?? '#'} ${p.unitKey}`;
  return tokenize(asked.written).join(' ') === tokenize(`${p.lineKey}${unit}`).join(' ');
}
