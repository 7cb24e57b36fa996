// Which stored spellings of an address a query means: when its exact line key finds nothing, or when another
// spelling of it is stored beside it (one building, one answer). The rule is never to answer with a property of
// another street: a street type missing on one side is filled only when the street name
// has that one type in the ZIP or city; a different type, several types, or several near names are a 404 that names
// the candidates.
import { DIRECTIONALS, looseDirectionals } from '@pra/core/address';
import type { Spelling } from '../data/record-queries.js';

export type Resolution =
  | { kind: 'lines'; spellings: Spelling[] }
  | { kind: 'ambiguous'; candidates: string[] }
  | { kind: 'none' };

/** The street name part of a loose key ("W_21ST" of "W_21ST 201") and its house number part. */
export function splitLooseKey(looseKey: string): { name: string; house: string } {
  const i = looseKey.indexOf(' ');
  return i < 0 ? { name: looseKey, house: '' } : { name: looseKey.slice(0, i), house: looseKey.slice(i + 1) };
}

/**
 * Chooses among the stored spellings at the query's loose key. `placeTypes` reads the street types the name has in
 * the ZIP or city; it is called only when a side lacks its type.
 */
export async function chooseSpellings(
  queryType: string,
  spellings: readonly Spelling[],
  placeTypes: () => Promise<string[]>,
): Promise<Resolution> {
  if (spellings.length === 0) return { kind: 'none' };
  const types = new Set(spellings.map((s) => s.streetType).filter((t) => t !== ''));
  const bare = spellings.filter((s) => s.streetType === '');
  const ambiguous = (): Resolution => ({ kind: 'ambiguous', candidates: spellings.map((s) => s.lineKey).sort() });
  const onlyTypes = async (allowed: ReadonlySet<string>) => (await placeTypes()).every((t) => allowed.has(t));
  if (queryType !== '') {
    const typed = spellings.filter((s) => s.streetType === queryType);
    if (typed.length > 0) {
      // Spellings without a type join only if the street has no other type here.
      const withBare = bare.length > 0 && types.size === 1 && (await onlyTypes(new Set([queryType])));
      return { kind: 'lines', spellings: withBare ? [...typed, ...bare] : typed };
    }
    if (types.size > 0) return ambiguous(); // stored under another type: another street, or a mistake to confirm
    return (await onlyTypes(new Set([queryType]))) ? { kind: 'lines', spellings: bare } : ambiguous();
  }
  if (types.size === 0) return { kind: 'lines', spellings: [...spellings] };
  if (types.size > 1) return ambiguous();
  return (await onlyTypes(types)) ? { kind: 'lines', spellings: [...spellings] } : ambiguous();
}

/** Optimal string alignment distance, stopping early above 1 (only "one letter off" matters here). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const restA = a.slice(i);
  const restB = b.slice(i);
  if (restA.slice(1) === restB.slice(1)) return true; // one substituted
  if (restA.slice(1) === restB || restA === restB.slice(1)) return true; // one inserted or deleted
  return restA.length >= 2 && restA[0] === restB[1] && restA[1] === restB[0] && restA.slice(2) === restB.slice(2);
}

/**
 * The two lines' streets differ by a word of one letter that one of them has and the other lacks (`1604 D MONTICELLO
 * AVE`, a house letter written apart, which a stored line keeps as the street's first word, as it does `100 O NEAL
 * ST`'s, against `1604 MONTICELLO AVE`): a letter of its own, another house's or an initial, not a slip within a name,
 * though their loose keys (`DMONTICELLO`, `MONTICELLO`) are one letter apart. Each line is its house number, then its
 * street's words.
 */
export function oneLetterWordApart(a: string, b: string): boolean {
  const [longer, shorter] = [a.split(' ').slice(1), b.split(' ').slice(1)].sort((x, y) => y.length - x.length);
  if (longer!.length !== shorter!.length + 1) return false;
  const at = longer!.findIndex((w, i) => w !== shorter![i]);
  return at >= 0 && longer![at]!.length === 1 && longer!.slice(at + 1).join(' ') === shorter!.slice(at).join(' ');
}

/** Street names long enough for a one-letter slip to be told from another street ("BEVERLEY" / "BEVERLY"). */
export const MIN_FUZZY_NAME = 6;

/** A line's keys (a stored line's, or a reading of the one asked), as the near-name rule reads them. */
export interface StreetKeys {
  lineKey: string;
  looseKey: string;
  streetType: string;
}

/**
 * Which stored lines are the asked street one letter off, with the same house number ("90 BEVERLEY RD" for "90
 * BEVERLY RD"); null when the asked name is too short for a slip to be told from another street, or has no number.
 */
export function oneLetterOffRule(asked: StreetKeys): ((stored: StreetKeys) => boolean) | null {
  const { name, house } = splitLooseKey(asked.looseKey);
  if (name.length < MIN_FUZZY_NAME || house === '') return null;
  const directionals = looseDirectionals(name);
  const digits = name.replace(/\D/g, '');
  return (l) => {
    const other = splitLooseKey(l.looseKey);
    if (other.house !== house || other.name.length < MIN_FUZZY_NAME || !withinOneEdit(name, other.name)) return false;
    // A digit more, less or other is another street or a unit, not a slip ("W_21ST" / "W_31ST", "KIMBERLY9").
    if (other.name.replace(/\D/g, '') !== digits) return false;
    // Nor a letter that is a word of its own ("1604 D MONTICELLO AVE", a house letter written apart).
    if (oneLetterWordApart(asked.lineKey, l.lineKey)) return false;
    if (asked.streetType !== '' && l.streetType !== '' && l.streetType !== asked.streetType) return false;
    // One letter off in a directional is another street ("N_BROADWAY" / "S_BROADWAY", "STERLING_N" / "..._S").
    const theirs = looseDirectionals(other.name);
    return theirs.pre === directionals.pre && theirs.post === directionals.post;
  };
}

/** The standard directionals ("N", "SW"): what a loose key's name may end in after "_". */
const STANDARD_DIRECTIONALS = [...new Set(DIRECTIONALS.values())];

/**
 * The loose keys of the street's other post-directional variants at the asked number: `plain`, the street without
 * the one asked (null when none is), and `others`, with each other directional; null when the key has no name or
 * number.
 */
export function postDirectionalKeys(c: {
  looseKeyNoPostDir: string;
  postDirectional: string;
}): { plain: string | null; others: string[] } | null {
  const { name, house } = splitLooseKey(c.looseKeyNoPostDir);
  if (house === '' || name === '') return null;
  return {
    plain: c.postDirectional !== '' ? c.looseKeyNoPostDir : null,
    others: STANDARD_DIRECTIONALS.filter((d) => d !== c.postDirectional).map((d) => `${name}_${d} ${house}`),
  };
}
