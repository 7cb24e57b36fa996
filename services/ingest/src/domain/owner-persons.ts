// Persons in an owner cell's words: LAST FIRST or FIRST LAST, several to a cell joined by `&` or written one after
// another with commas, first names sharing the surname before them, suffixes and surname particles where they
// belong. The parser's third step (owner-names.ts), for the words that name no entity.
import type { OWNER_TYPES } from '@pra/core/vocabulary';
import {
  allGivenNames,
  isCommonSurname,
  isFirstName,
  isWomansName,
  mostlyGivenName,
  readsFirstLast,
  readsLastAroundInitial,
} from './name-frequencies.js';

type OwnerType = (typeof OWNER_TYPES)[number];
import {
  AMP,
  HONORIFICS,
  SECOND_GIVEN_ALSO_SURNAMES,
  SECOND_GIVEN_NAMES,
  SUFFIXES,
  SURNAME_PARTICLES,
  TRUSTEE_MARKERS,
} from './owner-words.js';
import { isInitial, type NameOrder, type Tok, tokens, trimConnectors } from './owner-tokens.js';

export interface ParsedOwner {
  /** A person's name in reading order (FIRST MIDDLE LAST SUFFIX); an entity's as written. */
  fullName: string;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  suffix: string | null;
  type: OwnerType;
}

/**
 * The owner before a segment (the cell before, or the owner before an entity's `&`), as a co-owner may share its
 * surname (personsOf): that surname, whether the owner was given initials only (`RAMOS L S`), and whether a first name
 * at all (not `JOHN` alone, read as a surname).
 */
export interface Kin {
  last: Tok[];
  initialsOnly: boolean;
  hasGiven: boolean;
}

/** A parsed owner as the owner before the next segment (Kin); null for an entity or a name without a surname. */
export function kinOf(o: ParsedOwner | null): Kin | null {
  if (!o?.lastName) return null;
  const given = [o.firstName, ...(o.middleName?.split(' ') ?? [])];
  return {
    last: tokens(o.lastName),
    initialsOnly: given.every((w) => w !== null && w.length === 1),
    hasGiven: o.firstName !== null,
  };
}

/**
 * Whether given names (givenOnly) after the owner `kin` may take its surname: not a word before initials after an
 * owner given initials only, which a roll of initials writes as a surname (`DRUKE S A & RAMOS L S` / `CHASE M A`: M A
 * CHASE).
 */
function takesKinSurname(named: readonly Tok[], kin: Kin): boolean {
  return !(kin.initialsOnly && named.length > 1 && !isInitial(named[0]!));
}

export interface Person {
  first: Tok[];
  last: Tok[];
  suffix: Tok[];
}

function splitSuffixes(ts: Tok[], keepFirst: boolean): { name: Tok[]; suffix: Tok[] } {
  const name: Tok[] = [];
  const suffix: Tok[] = [];
  ts.forEach((t, i) => {
    if (SUFFIXES.has(t.key) && !(keepFirst && i === 0)) suffix.push(t);
    else name.push(t);
  });
  return { name, suffix };
}

/** How many words the surname at the start takes: `MC LEAN`, `DE LA CRUZ`, `VAN DER BERG` (a first name must stay). */
function leadingSurname(ts: readonly Tok[]): number {
  let n = 0;
  while (n < ts.length - 2 && SURNAME_PARTICLES.has(ts[n]!.key)) n++;
  return n + 1;
}

/** How many words the surname at the end takes: `JUAN DE LA CRUZ`. */
function trailingSurname(ts: readonly Tok[]): number {
  let n = 1;
  while (n < ts.length - 1 && SURNAME_PARTICLES.has(ts[ts.length - 1 - n]!.key)) n++;
  return n;
}

/** Whether `words` stand at `at` in `name`, key by key. */
function wordsAt(name: readonly Tok[], at: number, words: readonly Tok[]): boolean {
  if (at < 0 || at + words.length > name.length) return false;
  for (let i = 0; i < words.length; i++) if (name[at + i]!.key !== words[i]!.key) return false;
  return true;
}

/**
 * A co-owner written FIRST [MIDDLE] LAST in a LAST FIRST roll under `surnameBefore`, the surname of the owner before
 * it (`NATHAN DORIS L` / `JOSEPH NATHAN & RENEE`, `SPARKS RICHARD L TR` / `RICHARD LOTT SPARKS AND JULIA ELIZABETH`):
 * the name ends with that surname and begins with a word the lists know clearly as a first name (mostlyGivenName);
 * else null. A maiden name kept as a middle name is the roll's own order (`YOUNG HERLION HERMAN` /
 * `EVANS JOYCE YOUNG`, `AHMED FARZANA FAIZ` / `CHOWDHURY SANZIR AHMED`: EVANS and CHOWDHURY are no first names).
 */
function firstLastUnder(ts: Tok[], surnameBefore: readonly Tok[]): Person | null {
  const { name, suffix } = splitSuffixes(ts, true);
  const k = surnameBefore.length;
  const a = name[0];
  if (a === undefined || k === 0 || name.length <= k || !wordsAt(name, name.length - k, surnameBefore)) return null;
  if (isInitial(a) || a.key === surnameBefore[0]!.key || !mostlyGivenName(a.key)) return null;
  return { first: name.slice(0, -k), last: name.slice(-k), suffix };
}

/**
 * How many of the name's first words are two surnames, the second `surnameBefore` (the surname of the owner before
 * it), as Hispanic rolls write LAST1 LAST2 FIRST (`MOREL PERICLES` / `DE JESUS MOREL ANDREA M`: ANDREA M DE JESUS
 * MOREL; `WILDS DWAYNE` / `ROCK WILDS CHELSEA`); else 0. Not where that surname is also a first name (`MARTIN SUSAN` /
 * `JONES MARTIN LEE` is MARTIN LEE JONES; `JAMES ROBERT` / `SMITH JAMES ALLEN` JAMES ALLEN SMITH), nor the first word
 * clearly one (`SMITH JOHN` / `MARY SMITH JONES` is no LAST1 LAST2), nor where an initial follows them (`JONES ROBERT`
 * / `SMITH JONES K` keeps the roll's plain reading, JONES K SMITH: nothing tells).
 */
function secondSurnameEnd(name: readonly Tok[], surnameBefore: readonly Tok[]): number {
  const a = name[0];
  if (a === undefined || surnameBefore.length === 0 || isInitial(a) || a.key === surnameBefore[0]!.key) return 0;
  if (mostlyGivenName(a.key) || surnameBefore.some((t) => isFirstName(t.key))) return 0;
  const n = leadingSurname(name);
  const end = n + surnameBefore.length;
  return end < name.length && !isInitial(name[end]!) && wordsAt(name, n, surnameBefore) ? end : 0;
}

/** A name in the roll's LAST FIRST order; `surnameBefore`: the owner's before it, if any (secondSurnameEnd). */
function lastFirst(ts: Tok[], surnameBefore: readonly Tok[] | null): Person {
  const { name, suffix } = splitSuffixes(ts, true);
  const surnames = surnameBefore === null ? 0 : secondSurnameEnd(name, surnameBefore);
  if (surnames > 0) return { last: name.slice(0, surnames), first: name.slice(surnames), suffix };
  // FIRST M LAST inside a LAST FIRST roll (`GEORGE J ALLEN`, `HENRY V P WALSH`, `ROBERT J DE GUIO`): middle initials
  // between two names are read in order; unless the lists say the roll's own order (`DONOHUE W TERRENCE`).
  if (
    name.length >= 3 &&
    isInitial(name[1]!) &&
    !isInitial(name[name.length - 1]!) &&
    name.slice(2, -1).every((t) => isInitial(t) || SURNAME_PARTICLES.has(t.key)) &&
    !readsLastAroundInitial(name[0]!.key, name[name.length - 1]!.key)
  ) {
    // The surname: the last word and the particles before it (initials before those are the first name's).
    let s = name.length - 1;
    while (s > 2 && SURNAME_PARTICLES.has(name[s - 1]!.key) && !isInitial(name[s - 1]!)) s--;
    return { first: name.slice(0, s), last: name.slice(s), suffix };
  }
  // FIRST LAST, where the census' and the SSA's lists say so clearly (`JAMES HILL`, not `BRAXTON MARLO`), or where
  // the first word is an initial, which no surname is (`L KNOWLES`; not O of `O BRIEN`, a surname's particle).
  if (
    name.length === 2 &&
    !isInitial(name[1]!) &&
    (isInitial(name[0]!) ? !SURNAME_PARTICLES.has(name[0]!.key) : readsFirstLast(name[0]!.key, name[1]!.key))
  ) {
    return { first: name.slice(0, 1), last: name.slice(1), suffix };
  }
  const n = leadingSurname(name);
  return { last: name.slice(0, n), first: name.slice(n), suffix };
}

function firstLast(ts: Tok[]): Person {
  const { name, suffix } = splitSuffixes(ts, true);
  if (name.length === 1) return { first: [], last: name, suffix };
  const n = trailingSurname(name);
  return { first: name.slice(0, name.length - n), last: name.slice(name.length - n), suffix };
}

/** First names only (`CAROLE`, `CAROLE A`, `BETH F J`): a co-owner sharing the previous owner's surname. */
function givenOnly(ts: readonly Tok[]): boolean {
  const name = ts.filter((t) => !SUFFIXES.has(t.key));
  return name.length >= 1 && !isInitial(name[0]!) ? name.slice(1).every(isInitial) : name.every(isInitial);
}

/** A suffix or a trustee word: at a comma group's start, it closes the owner before (commaPart). */
const closesGroup = (t: Tok | undefined) => t !== undefined && (SUFFIXES.has(t.key) || TRUSTEE_MARKERS.has(t.key));

/**
 * One `&`-separated part with commas: `LAST, FIRST M`, `LAST, FIRST M, JR`, and several owners written one after
 * the other, `MEDRANO, MAURICIO C ZUNIGA, ELSA M` (a word before a comma, after a first name, starts the next owner)
 * or `WILLIAMS, LEWIS T, KAREN E` (a list of first names under one surname).
 */

function commaPart(ts: Tok[], inherited: Tok[] | null): Person[] {
  const groups: Tok[][] = [[]];
  for (const t of ts) {
    if (t.key === ',') groups.push([]);
    else groups[groups.length - 1]!.push(t);
  }
  while (groups.length > 1 && groups[groups.length - 1]!.length === 0) groups.pop();
  const people: Person[] = [];
  const head = splitSuffixes(
    groups[0]!.filter((t) => !TRUSTEE_MARKERS.has(t.key)),
    true,
  );
  let last = head.name;
  let pendingSuffix = head.suffix;
  // After `&`, `SARAH MORGAN, SUSAN P`: SARAH shares the surname before the `&`, MORGAN is the next owner's (`DUSTON DE
  // VILLEREGLAN, ISABELLE`: DE VILLEREGLAN). Not a surname with its particles alone (`DE MICHELE, MARINA`, `VAN
  // ZANDT, W`, `ST LEDGER-OLSON, BLAIR`), nor the surname before the `&` again (`DIJKMAN DULKES, ELLEN J & DIJKMAN
  // DULKES, ROBERT H P`), nor a surname that opens with it (`SMITH, JOHN & SMITH JONES, MARY`: MARY SMITH JONES).
  if (
    inherited &&
    last.length >= 2 &&
    !isInitial(last[last.length - 1]!) &&
    !last.slice(0, -1).every((t) => SURNAME_PARTICLES.has(t.key)) &&
    words(last) !== words(inherited) &&
    !opensWithSurname(last, inherited)
  ) {
    const n = Math.min(trailingSurname(last), last.length - 1);
    people.push({ first: last.slice(0, last.length - n), last: inherited, suffix: [] });
    last = last.slice(last.length - n);
  } else if (inherited && givenNamesThenInitial(last) && closesGroup(groups[1]?.[0])) {
    // After `&`, `JANET E, TRUSTEES BRUNELLE, NATHAN`, `ROGER D, JR BONDA, NADINE`: first names and an initial under the
    // surname before the `&`, closed by a trustee word or a suffix; the next owner's surname follows it.
    people.push({ first: last, last: inherited, suffix: [] });
    last = [];
  }
  /**
   * The words the group before took from its end as the next owner's surname (`B WISTAR`: WISTAR), which this group
   * may show were that owner's own; none when the group before took none.
   */
  let predicted: Tok[] | null = null;
  for (let g = 1; g < groups.length; g++) {
    const group = groups[g]!;
    // Suffixes and trustee words open a group when they close the previous owner (`KENNETH C, JR CRADDOCK, JENNY`).
    let a = 0;
    while (a < group.length && closesGroup(group[a])) a++;
    // The closing suffixes are the previous owner's (the head's, when none is made yet).
    (people[people.length - 1]?.suffix ?? pendingSuffix).push(...group.slice(0, a).filter((t) => SUFFIXES.has(t.key)));
    const rest = group.slice(a).filter((t) => !TRUSTEE_MARKERS.has(t.key));
    if (rest.length === 0) continue;
    const more = groups.slice(g + 1).some((x) => x.some((t) => !SUFFIXES.has(t.key) && !TRUSTEE_MARKERS.has(t.key)));
    if (a > 0 && more) {
      // `III KOSTER, JENNIFER A`, `TRUSTEE SETTLE, MARTHA A`: what follows the closing word is the next surname. The
      // words the group before took for it were its owner's own (`MORRIS, B WISTAR, III MORAN, KAREN M`: B WISTAR
      // MORRIS III).
      if (predicted) people[people.length - 1]!.first.push(...predicted);
      predicted = null;
      last = rest;
      continue;
    }
    predicted = null;
    // No surname to put a first name under (the head's went to the owner before: `JANET E, TRUSTEES JONES` cut
    // short): the words are the next owner's surname, a person of a surname alone if nothing follows.
    if (last.length === 0) {
      last = rest;
      continue;
    }
    const { name, suffix } = splitSuffixes(rest, false);
    let first = name;
    let nextLast: Tok[] | null = null;
    if (more && name.length >= 2 && !isInitial(name[name.length - 1]!)) {
      const n = Math.min(trailingSurname(name), name.length - 1);
      first = name.slice(0, name.length - n);
      nextLast = name.slice(name.length - n);
    }
    people.push({ first: first.filter((t) => t.key !== 'FNU'), last, suffix: [...pendingSuffix, ...suffix] });
    pendingSuffix = [];
    if (nextLast) {
      last = nextLast;
      predicted = nextLast;
    }
  }
  const lastPerson = people[people.length - 1];
  if (last.length > 0 && (people.length === 0 || (lastPerson && lastPerson.last !== last))) {
    // A surname left without a first name after it (`ZAHRA, FNU`, or a cell of one surname and a comma).
    people.push({ first: [], last, suffix: pendingSuffix });
  }
  return people;
}

/**
 * A part without its titles (HONORIFICS): one before a name of two words or more (`REV HENRY V P WALSH`; `MR COOPER`
 * alone stays, a company's name as likely), or after a comma, before a name (`SMITH, DR JOHN`).
 */
function withoutTitles(part: Tok[]): Tok[] {
  const isName = (t: Tok) => t.key !== ',' && !TRUSTEE_MARKERS.has(t.key);
  return part.filter((t, i) => {
    if (!HONORIFICS.has(t.key)) return true;
    if (i === 0) return part.filter(isName).length < 3;
    const next = part[i + 1];
    return !(part[i - 1]!.key === ',' && next !== undefined && isName(next));
  });
}

/** One word, or a first name and initials, and no `&`: too little for a surname and a first name of its own. */
function givenOnlyCell(ts: readonly Tok[]): boolean {
  const name = ts.filter((t) => !AMP.has(t.key));
  if (name.length === 0 || name.length !== ts.length) return false;
  return name.length === 1 || (!isInitial(name[0]!) && name.slice(1).every(isInitial));
}

/**
 * A first name and one of SECOND_GIVEN_NAMES (`MARY JO`, `BETTY ANN`, `LAURA MAE`, `ANN MARIE`): one woman's given
 * names, not a first name and a surname, nor a surname and a first name. Not where a word is `surname`, the family's
 * (`PIERRE GUITO` / `PIERRE MARIE` is MARIE PIERRE), nor a surname of initials only (`JOHN A & MARIE LOUISE`: A is no
 * family's), nor a first word that is a common surname unless clearly a first name. `strict`, where the roll's own
 * order is the other reading (a cell without commas, LAST FIRST or FIRST LAST): the first word a woman's name on the
 * SSA's lists and no common surname at all (`PYATT LOUISE` is LOUISE PYATT, `ALEXANDER MARIE` MARIE ALEXANDER, `SMITH
 * JOHN` / `ELIAS MARIE` MARIE ELIAS, but `JEAN MARIE` and `WILLIE MAE` share SMITH: girls' names among the owners'
 * births; written FIRST LAST, `KEVIN PARK & HYUN JO` keeps HYUN JO). Else (after `&` in a LAST, FIRST cell, whose
 * parts without a comma are read FIRST LAST, a surname ANN or LOU, by a convention the real rolls break:
 * Charlottesville's `BETTY LOU`, `KATHY LOU`) any first word, a name the lists lack too (`GARIBAY, JUAN CARLOS &
 * CELINA MARIE`), but before JO or LOU, East Asian surnames too (SECOND_GIVEN_ALSO_SURNAMES), a woman's name on the
 * lists (`HAWLEY, ROBERT G & BETTY LOU`; `PARK, JOHN & MINJI JO` keeps hers).
 */
function compoundGivenName(named: readonly Tok[], strict: boolean, surname: readonly Tok[] | null): boolean {
  const name = named.filter((t) => !SUFFIXES.has(t.key));
  if (name.length !== 2) return false;
  const [a, b] = name as [Tok, Tok];
  if (isInitial(a) || !SECOND_GIVEN_NAMES.has(b.key) || a.key === b.key) return false;
  if (surname !== null && (surname.every(isInitial) || surname.some((t) => t.key === a.key || t.key === b.key))) {
    return false;
  }
  if (isCommonSurname(a.key) && (strict || !mostlyGivenName(a.key))) return false;
  return strict || SECOND_GIVEN_ALSO_SURNAMES.has(b.key) ? isWomansName(a.key) : true;
}

/**
 * An owner of two words read LAST FIRST whose surname is clearly a first name and whose first name is none on the
 * lists, before a cell of its family (`next`): the roll's older entries' FIRST LAST, to be read so (`JOHN VACCA` /
 * `JOANN` is JOHN VACCA and JOANN VACCA, was VACCA JOHN and JOANN JOHN; `FRANK PARLINO` / `PATRICIA ANN`). The family's
 * cell: given names and initials only (and `&`), or a first name, given names or initials, and the same second word
 * last (`MILTON FLEXER` / `FREDA FLEXER`, `CATHERINE SLINER` / `ALFRED V SLINER`). Not before a cell that names
 * another surname or the first word again (`ABRAHAM BINIAM` / `ABRAHAM TEDROS`, `PIERRE GUITO` / `PIERRE MARIE`: the
 * roll's order, a family's surname first), nor a second word that is a first name or an initial. The caller keeps the
 * turn only where `next`, read under the owner turned, shares its surname (owner-names.ts parseOwnerCells). `seg`
 * and `next`: the cells' words without markers.
 */
export function turnsBeforeKinCell(seg: Tok[], owners: readonly ParsedOwner[], next: Tok[]): boolean {
  const [owner] = owners;
  if (owners.length !== 1 || owner?.type !== 'Individual') return false;
  const { name } = splitSuffixes(seg, true);
  if (name.length !== 2) return false;
  const [a, b] = name as [Tok, Tok];
  if (owner.lastName !== a.key || owner.firstName !== b.key || isInitial(b)) return false;
  if (!mostlyGivenName(a.key) || isFirstName(b.key)) return false;
  const family = splitSuffixes(
    next.filter((t) => !AMP.has(t.key)),
    true,
  ).name;
  if (family.length === 0 || isInitial(family[0]!) || family.some((t) => t.key === ',')) return false;
  const last = family[family.length - 1]!;
  if (family.length >= 2 && last.key === b.key && isFirstName(family[0]!.key)) return family[0]!.key !== a.key;
  return family.every((t) => isInitial(t) || (t.key !== a.key && isFirstName(t.key) && !isCommonSurname(t.key)));
}

/**
 * The persons of a segment's words. `kin`: the owner before the segment, whose surname a co-owner may share: a cell
 * of first names only (`SHAPLEY DONALD` / `RUTH`, `LARRY JONES` / `DAISY MAE`, in either order), first names opening
 * a LAST FIRST cell before `&` (`RESNICK MARIANNA` / `EDWARD & YAFFA JOSEPH K`), a co-owner written FIRST LAST under it
 * (firstLastUnder) and the given names after that one, or a second surname (secondSurnameEnd). Within the segment, a
 * co-owner after `&` may share the surname before it (sharesSurname, or opening with it: opensWithSurname), and in a
 * FIRST LAST roll first names before `&` the surname after them (surnameAhead).
 */
export function personsOf(ts: Tok[], order: NameOrder, kin: Kin | null): Person[] {
  const parts: Tok[][] = [[]];
  for (const t of ts) {
    if (AMP.has(t.key)) parts.push([]);
    else parts[parts.length - 1]!.push(t);
  }
  const commaStyle = ts.some((t) => t.key === ',');
  const people: Person[] = [];
  const named = (words: readonly Tok[]) => words.filter((t) => t.key !== ',' && !TRUSTEE_MARKERS.has(t.key));
  const cleaned = parts.map((raw) => withoutTitles(trimConnectors(raw)));
  const whole = named(ts);
  // A cell that is only kin's surname again (`JAMES HILL` / `HILL`) names no one new: not HILL HILL. Not with a
  // trustee's word (`SMITH JOHN` / `SMITH TR` keeps a trustee).
  const surnameAgain = kin && whole.length === kin.last.length && whole.every((t, i) => t.key === kin.last[i]!.key);
  if (surnameAgain && !commaStyle && !ts.some((t) => TRUSTEE_MARKERS.has(t.key))) {
    return [];
  }
  // A cell of given names only under kin's surname; a compound first name too (`LARRY JONES` / `DAISY MAE`), but in a
  // FIRST LAST roll after an owner with a first name (not `JOHN` / `MARY ANN`: JOHN was read as a surname alone).
  const givenCell =
    kin &&
    (givenOnlyCell(whole) || ((order === 'last-first' || kin.hasGiven) && compoundGivenName(whole, true, kin.last)));
  let surname = kin && !commaStyle && givenCell && takesKinSurname(whole, kin) ? kin.last : null;
  /** A co-owner was read FIRST LAST under kin's surname: given names by the lists after it share it (sharesSurname). */
  let afterFirstLast = false;
  for (let p = 0; p < cleaned.length; p++) {
    const part = cleaned[p]!;
    if (part.length === 0) continue;
    const hasComma = part.some((t) => t.key === ',');
    const words = named(part);
    if (words.length === 0) continue;
    const leadingCommaGroups = hasComma ? part.filter((t, i) => t.key === ',' && i < part.length - 1).length : 0;
    let found: Person[];
    // In order: a part with its own comma; a part after `&` under the surname before it (opening with it, or given
    // names sharing it); first names opening a LAST FIRST cell under kin's surname; first names before `&` in a
    // FIRST LAST cell under the surname after them; else the part alone, in the roll's order.
    if (hasComma && leadingCommaGroups > 0 && part[0]!.key !== ',' && commaHasName(part)) {
      found = commaPart(part, people.length > 0 ? surname : null);
    } else if (commaStyle && surname && opensWithSurname(words, surname)) {
      // `LI, XUDONG & LI JIN`, `SMITH, JOHN & SMITH MARY K`: after `&`, a part that opens with the surname before it
      // is that family's, LAST FIRST (JIN LI), not FIRST LAST (a first name LI of a family JIN).
      const { name, suffix } = splitSuffixes(words, true);
      found = [{ first: name.slice(surname.length), last: surname, suffix }];
    } else if (surname && sharesSurname(words, surname, people, order, commaStyle, afterFirstLast)) {
      const { name, suffix } = splitSuffixes(words, true);
      found = [{ first: name, last: surname, suffix }];
    } else if (
      order === 'last-first' &&
      people.length === 0 &&
      kin &&
      givenOnly(words) &&
      mostlyGivenName(words[0]!.key) &&
      takesKinSurname(words, kin) &&
      (words.length === 1 || parts.length === 1)
    ) {
      // `RESNICK MARIANNA` / `EDWARD & YAFFA JOSEPH K`, `DUBUQUE, RONALD F` / `WENDY A, CO-TTEES`: first names opening
      // the cell share the surname before it. Not in FIRST LAST, where `JOHN & MARY SMITH` is JOHN SMITH; nor a word
      // and initials before `&`, as a roll of surnames and initials writes (`DAVIS ROBERT` / `JAMES J & JAMES K`).
      const { name, suffix } = splitSuffixes(words, true);
      found = [{ first: name, last: kin.last, suffix }];
    } else if (
      order === 'first-last' &&
      !commaStyle &&
      surname === null &&
      givenOnly(words) &&
      opensWithGivenName(words)
    ) {
      // `JOHN & MARY SMITH`, `JOHN A & MARY B SMITH` written FIRST LAST: first names before `&` take the surname of
      // the owner after them (surnameAhead).
      const ahead = surnameAhead(cleaned, p);
      const { name, suffix } = splitSuffixes(words, true);
      found = [ahead ? { first: name, last: ahead, suffix } : firstLast(words)];
    } else if (order === 'first-last' || (commaStyle && surname)) {
      found = [firstLast(words)];
    } else {
      const before = surname ?? kin?.last ?? null;
      const under = before === null ? null : firstLastUnder(words, before);
      if (under) afterFirstLast = true;
      found = [under ?? lastFirst(words, before)];
    }
    for (const person of found) {
      if (person.last.length > 0) surname = person.last;
      people.push(person);
    }
  }
  return people;
}

/**
 * In a FIRST LAST cell without commas, the surname of the first part after `p` (parts without their titles and
 * connectors) that names a first name and a surname (`MARY SMITH` of `JOHN & MARY SMITH`); null when none does (`JOHN
 * & MARY`, `JOHN & SMITH`; `JOHN & MARY ANN`, `JOHN & JO ANN`: a compound first name). `DAVID & STEVEN CONNOR` is
 * DAVID CONNOR: a FIRST LAST roll writes the surname, even one the lists know as a first name.
 */
function surnameAhead(parts: readonly Tok[][], p: number): Tok[] | null {
  for (let j = p + 1; j < parts.length; j++) {
    const words = parts[j]!.filter((t) => !TRUSTEE_MARKERS.has(t.key));
    if (words.length === 0 || givenOnly(words)) continue;
    return compoundGivenName(words, true, null) ? null : firstLast(words).last;
  }
  return null;
}

/**
 * The words open with `surname` and name more after it. Where that surname is one of the SSA's first names too, only
 * when what follows it is first names and initials, none a common surname, the first none of SECOND_GIVEN_NAMES:
 * `JAMES, ROBERT & JAMES MARY K` is MARY K JAMES (was JAMES MARY K JAMES), where `JAMES, ROBERT & JAMES SMITH` keeps
 * JAMES SMITH, `LEE, DAVID W & LEE ANN M` LEE ANN M LEE, `THOMAS, JOHN & THOMAS A JONES` THOMAS A JONES; `JAMES,
 * ROBERT & JAMES K` still reads JAMES K JAMES (an initial alone tells nothing: docs/known-gaps.md).
 */
function opensWithSurname(words: readonly Tok[], surname: readonly Tok[]): boolean {
  const { name } = splitSuffixes([...words], true);
  if (name.length <= surname.length || !wordsAt(name, 0, surname)) return false;
  if (!isFirstName(surname[0]!.key)) return true;
  const given = name.slice(surname.length).filter((t) => !isInitial(t));
  return (
    given.length > 0 &&
    !SECOND_GIVEN_NAMES.has(given[0]!.key) &&
    given.every((t) => isFirstName(t.key) && !isCommonSurname(t.key))
  );
}

/**
 * A given name's first word: an initial, or clearly a first name by the lists (not `SMITH & MARY JONES`'s SMITH, nor
 * `TAYLOR & MARY JONES`'s TAYLOR, as often a surname).
 */
const opensWithGivenName = (name: readonly Tok[]) =>
  name.length > 0 && (isInitial(name[0]!) || mostlyGivenName(name[0]!.key));

/**
 * A part after `&` of first names only, under the surname before it: `VALERIE W`, `BETH F J`, `HERNAN`
 * (givenOnly), unless it is an owner of its own in a roll of initials (surnameBeforeInitials); and with commas, first
 * names that end with an initial (givenNamesThenInitial) or given names by the lists (givenNamesByTheLists). Those two
 * not without commas: a roll's own order writes the next owner whole there (`SMITH JOHN & HOLDEN BRANDON`, `JOHN
 * SMITH & WILLIAM LINCOLN`), and a surname that is a first name off the census' list (HOLDEN, LINCOLN) would be taken
 * for a middle name; so `DION MAURICE & MARY ELLEN` reads MARY as a surname, as a LAST FIRST roll writes it.
 */
function sharesSurname(
  named: readonly Tok[],
  surname: readonly Tok[],
  people: readonly Person[],
  order: NameOrder,
  commaStyle: boolean,
  afterFirstLast: boolean,
) {
  if (givenOnly(named)) return !surnameBeforeInitials(named, people, order, commaStyle);
  // A compound first name (`MILLER, DOUGLAS & BETTY ANN`, `JETER JAMES W & LAURA MAE`); in a FIRST LAST roll under the
  // surname of an owner with a first name (not `JOHN & MARY ANN`, a word alone before it).
  const before = people[people.length - 1];
  const compound =
    (order === 'last-first' || before === undefined || before.first.length > 0) &&
    compoundGivenName(named, !commaStyle, surname);
  if (commaStyle) return givenNamesThenInitial(named) || givenNamesByTheLists(named) || compound;
  // `RICHARD LOTT SPARKS AND JULIA ELIZABETH`: after a co-owner written FIRST LAST (firstLastUnder), given names by
  // the lists; not a name that may be an owner of its own (`JOSEPH NATHAN & SMITH MARY` is MARY SMITH).
  return (afterFirstLast && givenNamesByTheLists(named)) || compound;
}

/**
 * `WALLACE, TIMOTHY J & LISA ANN`, `DION, MAURICE & MARY ELLEN`: after `&` in a cell with commas, names the lists know
 * only as first names (allGivenNames) are one owner's first and middle names under the surname before, not FIRST LAST
 * (`LISA` of a family `ANN`). A word off the first-name list (`JANE DOE`), a common surname (`JOHN PAUL`) or a name
 * after an initial (`AMANDA M FINN`: FIRST M LAST) keeps its own.
 */
function givenNamesByTheLists(named: readonly Tok[]): boolean {
  const name = named.filter((t) => !SUFFIXES.has(t.key));
  return name.length >= 2 && !name.some(isInitial) && allGivenNames(name.map((t) => t.key));
}

/**
 * `SMITH, RICHARD C & BARBARA ANN B`: after `&` in a cell with commas, names that end with an initial are first
 * names and a middle initial under the surname before (BARBARA ANN B SMITH); read FIRST LAST, the initial was the
 * surname. (`FRITZ, KYLE C & SISSON BARI S`, LAST FIRST M, reads so too: nothing tells it apart.)
 */
function givenNamesThenInitial(named: readonly Tok[]): boolean {
  const name = named.filter((t) => !SUFFIXES.has(t.key));
  return name.length >= 2 && isInitial(name[name.length - 1]!) && !isInitial(name[0]!);
}

/**
 * `BECKER D R & DRAKE R E`: a roll that writes LAST FIRST without commas, and gives the owner just before the `&`
 * initials only, writes the next one so too: a word before initials there is that owner's surname (R E DRAKE), not a
 * first name under BECKER (Lebanon's trustee pairs). With full first names before it (`SMITH JOHN & MARY K`), without
 * an initial after it (`SMITH J & JOHN JR`), or in a cell with commas (`JOLLY, W F & BARBARA N`), the word is a first
 * name, as before.
 */
function surnameBeforeInitials(
  named: readonly Tok[],
  people: readonly Person[],
  order: NameOrder,
  commaStyle: boolean,
) {
  if (order !== 'last-first' || commaStyle || named.length < 2 || isInitial(named[0]!)) return false;
  const before = people[people.length - 1];
  if (!before || before.first.length === 0 || !before.first.every(isInitial)) return false;
  const rest = named.slice(1);
  return rest.some(isInitial) && rest.every((t) => isInitial(t) || SUFFIXES.has(t.key));
}

/** A comma that splits a name: some words after it that are not only suffixes. */
function commaHasName(part: Tok[]): boolean {
  const i = part.findIndex((t) => t.key === ',');
  return part.slice(i + 1).some((t) => t.key !== ',' && !SUFFIXES.has(t.key) && !TRUSTEE_MARKERS.has(t.key));
}

/** Words' text, spaced; null when none. */
export function words(ts: Tok[]): string | null {
  return ts.length === 0 ? null : ts.map((t) => t.text).join(' ');
}

export function personOwner(p: Person, type: OwnerType): ParsedOwner | null {
  const first = words(p.first.slice(0, 1));
  const middle = words(p.first.slice(1));
  const last = words(p.last);
  const suffix = words(p.suffix);
  const fullName = [first, middle, last, suffix].filter((w) => w !== null).join(' ');
  if (fullName === '') return null;
  return { fullName, firstName: first, middleName: middle, lastName: last, suffix, type };
}
