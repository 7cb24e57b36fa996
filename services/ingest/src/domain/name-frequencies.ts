// How often a word is a first name, and how often a surname, in the United States: the SSA's first names of 2010
// births and of the births of 1920-1999 (the years today's owners were born in: BETTY, DOROTHY, ALMA, and JEAN and
// WILLIE as girls' names, are on that list only; built by scripts/ssa-first-names-from-yob.ts), and the 2010 census
// surnames (their top 1,000 each, in services/ingest/reference), read when first needed: an import reads them at its
// start (loadNameLists), so a missing file fails it there, naming it, not row by row, and a command that parses no
// owner (remove, rekey) runs without them. What tells a FIRST LAST name in a roll that writes LAST FIRST (`JAMES
// HILL`, `LARRY JONES`, `DOROTHY ELLIS`: owner-persons.ts) from the roll's own order (`BRAXTON MARLO`, `JOHN REENA`).
import { firstNameRows, referenceRows } from './reference-files.js';

/**
 * Shares of the population (0-1); a word on neither list is rarer than the list's last. A first name's share is its
 * larger on the SSA's two lists (of one sex's births), its sexes those either list gives it (MINORITY_SHARE).
 */
interface Frequencies {
  first: ReadonlyMap<string, number>;
  /** The sexes a first name is given to, as bits: 1 female, 2 male. */
  sexes: ReadonlyMap<string, number>;
  surname: ReadonlyMap<string, number>;
  /**
   * What a word off the lists counts as: half the smallest share on them; for first names, on the 2010 list (0.0100%),
   * which the odds' thresholds below were set by: the 1920-1999 list reaches 0.0046%, and a floor of half that moved
   * every odds against a word off the lists two-fold (the three rolls read the same either way).
   */
  firstFloor: number;
  surnameFloor: number;
}

let loaded: Frequencies | undefined;

/** The SSA's first names of 2010 births (the hand-out's): the floor of a word off the lists is half its smallest share. */
const LIST_2010 = 'ssa-2010-first-names-top1000.csv';
/** The SSA's first names of 1920-1999 births (scripts/ssa-first-names-from-yob.ts), for names OLDER_LIST_MARGIN allows. */
const LIST_OWNERS_BIRTHS = 'ssa-1920-1999-first-names-top1000.csv';
export const FIRST_NAME_FILES = [LIST_2010, LIST_OWNERS_BIRTHS];
/** A sex a list gives a name to less often than this is not one of the name's sexes. */
const MINORITY_SHARE = 0.05;
/** How much likelier a first name than a surname a name must be for the 1920-1999 list to speak for it (load). */
const OLDER_LIST_MARGIN = 2;

/** The lists, read on the first call; throws, naming the file and what to do, when one cannot be read. */
function lists(): Frequencies {
  loaded ??= load();
  return loaded;
}

/** Reads the lists now if not yet read: an import calls it before its first row (see the module's head). */
export function loadNameLists(): void {
  lists();
}

/** A first-name list's names, each with its shares (0-1) of girls' and boys' births. */
function namesBySex(file: string): Map<string, { F: number; M: number }> {
  const bySex = new Map<string, { F: number; M: number }>();
  for (const r of firstNameRows(file)) {
    const e = bySex.get(r.name) ?? { F: 0, M: 0 };
    e[r.sex] = Math.max(e[r.sex], r.percent / 100);
    bySex.set(r.name, e);
  }
  return bySex;
}

function load(): Frequencies {
  const surname = new Map<string, number>();
  // Name, rank, count, proportion per 100,000, ...
  for (const r of referenceRows('census-2010-surnames-top1000.csv'))
    surname.set(r[0]!.toUpperCase(), Number(r[3]!.replace(/,/g, '')) / 100_000);
  const first = new Map<string, number>();
  const sexes = new Map<string, number>();
  const byList = FIRST_NAME_FILES.map((file) => ({ file, names: namesBySex(file) }));
  let firstFloor = Number.POSITIVE_INFINITY;
  for (const e of byList[0]!.names.values()) firstFloor = Math.min(firstFloor, Math.max(e.F, e.M) / 2);
  for (const { file, names } of byList) {
    for (const [name, e] of names) {
      // The owners' births' list reaches shares the 2010 one does not (its last names are half as common), names the
      // census knows better as surnames (HARRIS, WARD, STEWART, given to a few boys) and some about as often surnames
      // (KIM 1.6 times, NEAL, ARNOLD): it speaks only for names it gives at least OLDER_LIST_MARGIN times the census'
      // share as a surname (GLENN, FLOYD, DOROTHY; THOMAS 6 times), so that a roll's `KIM, SOO & KIM MI K`, `KIM
      // YOUNG` or `HARRIS J THOMAS` keeps its surname, as with the 2010 list alone.
      if (file === LIST_OWNERS_BIRTHS && OLDER_LIST_MARGIN * (surname.get(name) ?? 0) > Math.max(e.F, e.M)) continue;
      // Across the lists a name takes its larger share, at least a word off them's (NESTOR, 0.0049% of the older
      // births, is under the floor), and the sexes either list gives it at least MINORITY_SHARE of the time (its
      // two shares, of births about as many of each sex, compared): a few boys named MARY, girls named RYAN or
      // JAMES, do not make the name theirs.
      first.set(name, Math.max(first.get(name) ?? 0, e.F, e.M, firstFloor));
      const bits = (e.F >= MINORITY_SHARE * (e.F + e.M) ? 1 : 0) | (e.M >= MINORITY_SHARE * (e.F + e.M) ? 2 : 0);
      sexes.set(name, (sexes.get(name) ?? 0) | bits);
    }
  }
  return {
    first,
    sexes,
    surname,
    firstFloor,
    surnameFloor: Math.min(...surname.values()) / 2,
  };
}

/**
 * How much likelier `a b` is a first name and a surname than a surname and a first name, by the lists: 1 when
 * they cannot tell (neither word on them), above 1 for FIRST LAST (`JAMES HILL`: 1,186), below for LAST FIRST.
 */
function firstLastOdds(a: string, b: string): number {
  const l = lists();
  const first = (w: string) => l.first.get(w) ?? l.firstFloor;
  const surname = (w: string) => l.surname.get(w) ?? l.surnameFloor;
  return (first(a) * surname(b)) / (surname(a) * first(b));
}

/** The word is one of the census' top 1,000 surnames. */
export function isCommonSurname(w: string): boolean {
  return lists().surname.has(w);
}

/**
 * How much likelier FIRST LAST must be for two words in a LAST FIRST roll to be read so: a roll writes its own order
 * for all but a few of its owners (Philadelphia's older entries), so the lists must be clear. At 30, of
 * Philadelphia's two-word owners, `JAMES HILL` (1,186), `LARRY JONES`, `SIDNEY DIXON` (85), `ALMA NELSON` (91),
 * `LONNIE ALLEN JR` (35) turn; `TRAVIS RANDOLPH` (7), `SANTIAGO NELSON` (26) do not.
 */
const FIRST_LAST_ODDS = 30;

/**
 * `a b`, written in a LAST FIRST roll, is a first name and a surname: b is one of the census' common surnames (a given
 * name off the lists, as in `JOHN REENA` or `JOSE SIJI`, is not read as one) and the lists make FIRST LAST at least
 * FIRST_LAST_ODDS times likelier.
 */
export function readsFirstLast(a: string, b: string): boolean {
  return isCommonSurname(b) && firstLastOdds(a, b) >= FIRST_LAST_ODDS;
}

/**
 * The word is clearly a first name rather than a surname, by the lists: on the SSA's first names, with a share there
 * at least GIVEN_NAME_ODDS times the census gives it as a surname (RICHARD 100, JOSEPH 46, JAMES 40, THOMAS 6; not
 * TAYLOR 1.2, CARTER 3.1, MIRANDA 2.8, nor a surname off the first names). What `JOSEPH NATHAN` after `NATHAN DORIS L`
 * needs to read as JOSEPH NATHAN (owner-persons.ts firstLastUnder): the co-owner's surname says which word is the
 * surname, and this, that the other is a first name, not a married name before a maiden name (`SMITH ROBERT` /
 * `TAYLOR JENNIFER SMITH` is JENNIFER SMITH TAYLOR). The shares are of one sex's births against the whole
 * population's surnames: a margin, not a bare majority.
 */
export function mostlyGivenName(w: string): boolean {
  const l = lists();
  const first = l.first.get(w);
  return first !== undefined && first >= GIVEN_NAME_ODDS * (l.surname.get(w) ?? 0);
}
const GIVEN_NAME_ODDS = 5;

/**
 * The word is one of the SSA's first names given to girls (MARY, DAISY, and JEAN, WILLIE, CHRIS among the
 * births of 1920-1999; not JAMES nor RYAN, given to girls under MINORITY_SHARE of the time).
 */
export function isWomansName(w: string): boolean {
  return ((lists().sexes.get(w) ?? 0) & 1) !== 0;
}

/** The word is one of the SSA's first names (MARTIN, SCOTT, LEE too, which are more often surnames). */
export function isFirstName(w: string): boolean {
  return lists().first.has(w);
}

/**
 * `a I b`, written in a LAST FIRST roll with an initial between, is the roll's own LAST FIRST MIDDLE (`DONOHUE W
 * TERRENCE`, `ZUCKERMAN M MICHAEL`), not FIRST M LAST (`GEORGE J ALLEN`, `ELEUTERIO A RIVAS`): a is none of the SSA's
 * first names, and b is one that is none of the census' common surnames (TERRENCE), or the lists make `a b` at least
 * LAST_AROUND_INITIAL_ODDS times likelier LAST FIRST than FIRST LAST (MICHAEL 260 after a word on neither list; not
 * JAMES 48, THOMAS 7, HENRY 7 there: `ELMER L HENRY`, `DOROTHY M CONNOR` are FIRST M LAST, ELMER and DOROTHY first
 * names of the owners' births).
 */
export function readsLastAroundInitial(a: string, b: string): boolean {
  const l = lists();
  return !l.first.has(a) && l.first.has(b) && (!l.surname.has(b) || firstLastOdds(a, b) < 1 / LAST_AROUND_INITIAL_ODDS);
}
/** How much likelier `a b` must be LAST FIRST, where b is a common surname too (after a word on neither list: MICHAEL
 * 260, JAMES 48, THOMAS 7). */
const LAST_AROUND_INITIAL_ODDS = 50;

/**
 * The words are a first name and middle names: each a first name on the SSA's lists given to a sex the first word is
 * given to, and none one of the census' common surnames (`LISA ANN`, `MARY ELLEN`, `HANNAH CATHERINE`; not `JULIE
 * LACY`, LACY off the first names, nor `JOHN PAUL`, PAUL a common surname too, nor `TATIANA JORGE`, a man's name after
 * a woman's). After `&` in a cell with commas, such names share the surname before them (owner-persons.ts).
 */
export function allGivenNames(keys: readonly string[]): boolean {
  const l = lists();
  let sex = 3;
  for (const w of keys) {
    sex &= l.sexes.get(w) ?? 0;
    if (sex === 0 || l.surname.has(w)) return false;
  }
  return keys.length > 0;
}
