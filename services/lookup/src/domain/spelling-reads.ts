// Which stored spellings of an address a lookup reads: the statements around the pure rules of
// spelling-rules.ts. Never another street: in doubt, a 404 that names the candidates.
import { notFound } from '@pra/core/errors';
import type { AddressCriteria, RecordStore, Spelling } from '../data/record-queries.js';
import { chooseSpellings, oneLetterOffRule, postDirectionalKeys, splitLooseKey } from './spelling-rules.js';
import type { Run } from './lookup-deadline.js';

function didYouMean(c: AddressCriteria, candidates: readonly string[]): never {
  const names = candidates.slice(0, 3).join("', '");
  throw notFound(
    `No properties found at '${c.lineKey}'; did you mean '${names}'${candidates.length > 3 ? ', ...' : ''}? Give the street type as stored.`,
  );
}

/**
 * The spellings stored at loose keys, less those of another range of the same low number: "31-45 X ST" and "31-70
 * X ST" (Queens) are two buildings; "223 X ST" and "223-225 X ST" may be one.
 */
async function spellingsAt(store: RecordStore, c: AddressCriteria, run: Run, keys?: readonly string[]) {
  const house = (lineKey: string) => lineKey.slice(0, lineKey.indexOf(' '));
  const asked = house(c.lineKey);
  const found = await run(() => store.spellings(c, keys));
  return found.filter((s) => {
    const theirs = house(s.lineKey);
    return theirs === asked || !theirs.includes('-') || !asked.includes('-');
  });
}

const typesOf = (store: RecordStore, c: AddressCriteria, run: Run, looseKey: string) => () =>
  run(() => store.streetTypes(c, splitLooseKey(looseKey).name));

/**
 * The spellings of an exact hit's building ("543 W 122ND" beside "543 W 122ND ST"): those at its loose key that are
 * the same street as the one asked, or null when the others cannot be told apart from another street (the exact
 * spelling alone is then answered: it exists as asked).
 */
export async function buildingSpellings(store: RecordStore, c: AddressCriteria, run: Run): Promise<Spelling[] | null> {
  const found = await chooseSpellings(
    c.streetType,
    await spellingsAt(store, c, run),
    typesOf(store, c, run, c.looseKey),
  );
  return found.kind === 'lines' && found.spellings.some((s) => s.lineKey === c.lineKey) ? found.spellings : null;
}

/**
 * The stored spellings of an address whose post-directional is on one side only ("20 PLAZA ST EAST" for "20 PLAZA
 * ST", or the reverse): only when the number is stored on one variant of the street in the place (with or without a
 * directional). Where "20 MAIN ST E" and "20 MAIN ST W" are both stored, "20 MAIN ST" is a 404 naming both; a
 * directional asked is never answered by another ("20 PLAZA ST SW" is not "20 PLAZA ST NE"). The store holds a
 * county's every parcel: a number stored on one variant only is that variant's.
 */
async function postDirectionalSpellings(store: RecordStore, c: AddressCriteria, run: Run): Promise<Spelling[] | null> {
  const variants = postDirectionalKeys(c);
  if (variants === null) return null;
  const keys = variants.plain !== null ? [variants.plain, ...variants.others] : variants.others;
  const found = await spellingsAt(store, c, run, keys);
  if (found.length === 0) return null;
  // Several variants hold the number, or only another directional than the one asked: a 404 that names them.
  const streets = new Set(found.map((s) => s.looseKey));
  if (streets.size > 1 || (c.postDirectional !== '' && !streets.has(c.looseKeyNoPostDir))) {
    didYouMean(c, found.map((s) => s.lineKey).sort());
  }
  const [looseKey] = streets;
  const chosen = await chooseSpellings(c.streetType, found, typesOf(store, c, run, looseKey!));
  if (chosen.kind === 'ambiguous') didYouMean(c, chosen.candidates);
  return chosen.kind === 'lines' ? chosen.spellings : null;
}

/** Stored streets one letter off the asked one ("BEVERLEY RD" for "BEVERLY RD"), with the same number. */
async function oneLetterOff(store: RecordStore, c: AddressCriteria, run: Run): Promise<Spelling[]> {
  const near = oneLetterOffRule(c);
  if (near === null) return [];
  const lines = new Map<string, string[]>();
  const numbered = await run(() => store.numberedLines(c, splitLooseKey(c.looseKey).house));
  for (const l of numbered.lines) {
    if (near(l)) lines.set(l.looseKey, [...(lines.get(l.looseKey) ?? []), l.lineKey]);
  }
  // Several near names, or one among more streets of the number than were read (another past them may be as near).
  if (lines.size > 1 || (lines.size === 1 && numbered.more)) {
    didYouMean(c, [...lines.values()].flat().sort());
  }
  const [looseKey] = [...lines.keys()];
  if (looseKey === undefined) return [];
  const nearC = { ...c, looseKey };
  const again = await chooseSpellings(
    c.streetType,
    await spellingsAt(store, nearC, run),
    typesOf(store, c, run, looseKey),
  );
  if (again.kind === 'ambiguous') didYouMean(c, again.candidates);
  return again.kind === 'lines' ? again.spellings : [];
}

/**
 * The stored spellings a query means when its exact line finds nothing: at its loose key, with its last word read
 * as the name's, with the post-directional on one side only, or at one street name a letter away with that number.
 */
export async function resolveSpellings(store: RecordStore, c: AddressCriteria, run: Run): Promise<Spelling[]> {
  const found = await chooseSpellings(
    c.streetType,
    await spellingsAt(store, c, run),
    typesOf(store, c, run, c.looseKey),
  );
  if (found.kind === 'lines') return found.spellings;
  if (found.kind === 'ambiguous') didYouMean(c, found.candidates);
  if (c.looseKeyUntyped !== null) {
    // "7957 VALLEY GREEN" for "7957 VALLEY GREEN CIR": the last word was the name's, not a street type.
    const untyped = { ...c, looseKey: c.looseKeyUntyped, streetType: '' };
    const asName = await chooseSpellings(
      '',
      await spellingsAt(store, untyped, run),
      typesOf(store, c, run, c.looseKeyUntyped),
    );
    if (asName.kind === 'lines') return asName.spellings;
    if (asName.kind === 'ambiguous') didYouMean(c, asName.candidates);
  }
  const directional = await postDirectionalSpellings(store, c, run);
  return directional ?? (c.slips ? await oneLetterOff(store, c, run) : []);
}
