// Owner names as assessor rolls write them (docs/data.md "Owner names"): one or two cells per row, each holding one
// owner, two owners, or half of one. Here the cells and their segments, read in steps: their words (owner-tokens.ts),
// an entity's type (owner-entity-type.ts), persons (owner-persons.ts); and the record's two owners. Linear in the
// cells' length, no backtracking regex; the name lists the persons are read by (name-frequencies.ts) are read from
// disk once, at an import's start (or at the first name that needs them).
import { OWNER_TYPES } from '@pra/core/vocabulary';
import { entityType } from './owner-entity-type.js';
import { kinOf, type ParsedOwner, personOwner, personsOf, turnsBeforeKinCell } from './owner-persons.js';
import { byOwnerField, OWNER_FIELDS, type OwnerInput, type RecordOwners } from './property-input.js';
import {
  dropMarkers,
  joinText,
  MAX_CELL_CHARS,
  type NameOrder,
  isBracketedEstate,
  type Tok,
  tokens,
  trimConnectors,
} from './owner-tokens.js';
import {
  AMP,
  CLOSING_WORDS,
  JOINS,
  CONNECTORS,
  CONTACT_QUALIFIERS,
  CONTACT_TITLES,
  ESTATE_WORDS,
  type EntityType,
  SUFFIXES,
  TRADE_NAME,
  TRUST_ENDINGS,
  TRUST_LEAD_INS,
  TRUSTEE_MARKERS,
  WORD_TYPE,
} from './owner-words.js';

export type { NameOrder, ParsedOwner };
export { MAX_CELL_CHARS };
/**
 * Who an owner is. `Individual` a person; `Trustee` a person named as trustee (`SMITH JOHN TR`: a person, with first
 * and last name, who holds for a trust); the rest are entities, never split into first/last: `Corporation`
 * (LLC, INC, LP, HOLDINGS..., and any name with a digit, a glued `&` or an inner OF), `Trust`, `Government`, `Estate`
 * (ESTATE OF, HEIRS), `Religious`, `Association` (condominium, homeowners, university...), `Financial` (banks,
 * mortgage companies, also as trustees).
 */
export type OwnerType = (typeof OWNER_TYPES)[number];
export { OWNER_TYPES };

// The parser's entity types are the record's owner types less the two person types, no more, no less.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const entityTypesMatch: Same<EntityType, Exclude<OwnerType, 'Individual' | 'Trustee'>> = true;
void entityTypesMatch;

/** More cells than this is a caller's error (a row's owner columns are one or two). */
export const MAX_CELLS = 4;

function isPersonMarked(ts: readonly Tok[]): boolean {
  return ts.some((t) => t.key === ',' || TRUSTEE_MARKERS.has(t.key) || SUFFIXES.has(t.key));
}

/** A word that ends an owner's name: a legal form, a trust's word (CLOSING_WORDS), a trustee word, a bracketed `(EST)`. */
const closesOwner = (t: Tok) => CLOSING_WORDS.has(t.key) || TRUSTEE_MARKERS.has(t.key) || isBracketedEstate(t);
/** Words that name an owner alone: an entity's, or a person's written LAST, FIRST or as trustee (not `MARY`). */
const ownerOfItsOwn = (ts: readonly Tok[], order: NameOrder) =>
  entityType(ts, order) !== null || ts.some((t) => t.key === ',' || TRUSTEE_MARKERS.has(t.key));

function closed(ts: readonly Tok[]): boolean {
  const last = ts[ts.length - 1];
  return last !== undefined && CLOSING_WORDS.has(last.key);
}

/**
 * `DANIEL J JUSTYNSKI, RE DIRECTOR`, `JOEL MCPHERSON, PASTOR` after a company's or a church's own cell: a person to
 * write to, not an owner (what follows the cell's last comma is a title and its qualifiers only); so is a cell of a
 * title alone (`DAVIDS HOUSE INC` / `EXECUTIVE DIRECTOR`). After a person's cell (`SMITH, JOHN &` / `DOE, JANE,
 * TREASURER`) it is another owner, as before.
 */
function contactLine(ts: readonly Tok[], prev: Tok[] | undefined, order: NameOrder): boolean {
  if (!prev) return false;
  const comma = ts.findLastIndex((t) => t.key === ',');
  if (comma === 0 || comma === ts.length - 1) return false;
  // What follows the last comma; a cell without one is a title alone or nothing (`EXECUTIVE DIRECTOR`).
  const title = ts.slice(comma < 0 ? 0 : comma + 1);
  if (!title.some((t) => CONTACT_TITLES.has(t.key))) return false;
  if (!title.every((t) => CONTACT_TITLES.has(t.key) || CONTACT_QUALIFIERS.has(t.key))) return false;
  const owner = dropMarkers(prev);
  const last = owner[owner.length - 1];
  return last !== undefined && !CONNECTORS.has(last.key) && entityType(trimConnectors(owner), order) !== null;
}

/**
 * Whether the next cell continues this one's name rather than naming another owner: this cell ends with `AND`/`&`
 * (`GANGEMI JOSEPH A AND` / `CAROLE A H/W`); the next begins with a connector (`OF PHILADELPHIA`, `& ANDERSON,
 * PAMELA`, `IN TRUST`); the next holds only entity words (`CHURCH`, `BAPTIST CHURCH`, `CO`, `INC`); or this is an
 * entity whose name is not closed (no LLC, INC, TRUST... at its end) and the next is an entity's words, not a trust's
 * or an estate's (`CITY OF PHILA` / `DEPT OF PUBLIC PROP`, `PHILADELPHIA HOUSING` / `DEVELOPMENT CORPORATION`).
 */
function continues(prev: Tok[], next: Tok[], order: NameOrder): boolean {
  const end = prev[prev.length - 1];
  const start = next[0];
  if (!end || !start) return false;
  // `HYANNIS AIR SERVICE INC D/B/A` / `CAPE AIR`: the trade name is the same owner's.
  // `MCFARLAND GEORGE ESTATE OF` is whole: its OF is the estate's, not the start of the next cell's name.
  const estateOf = end.key === 'OF' && ESTATE_WORDS.has(prev[prev.length - 2]?.key ?? '');
  if (AMP.has(end.key) || (end.key === 'OF' && !estateOf) || end.key === 'FOR' || TRADE_NAME.has(end.key)) return true;
  // `J TAI LLC` / `DBA QUALITY INN` too.
  if (CONNECTORS.has(start.key) || TRADE_NAME.has(start.key)) return true;
  if (next.every((t) => WORD_TYPE.has(t.key))) return true;
  const prevType = entityType(prev, order);
  if (prevType === null || closed(prev) || isPersonMarked(next)) return false;
  // One word after an unclosed entity is the rest of its name (`ROMAN CATHOLIC BISHOP OF MANCH` / `ESTER`).
  if (next.length === 1) return true;
  // An unclosed entity is continued by entity words (`DEPT OF TRANS`, `HUD`), not by a person's name.
  const nextType = entityType(next, order);
  return nextType !== null && nextType !== 'Trust' && nextType !== 'Estate';
}

/**
 * The trust's last word from its first ending (`LD` of `DAIRY RD LD TR`, of `WOOD&WOOD LD T`, of `MACGREGOR LD
 * TR#2`): the endings that follow it are its name's too, and so is a T that ends the cell (TR cut short); after OF,
 * the words up to a comma, an `&` or the cell's end.
 */
function trustEnd(ts: readonly Tok[], e: number): number {
  let end = e;
  // `TRUSTEE OF TRUST OF DEBORAH A LYLE`, `TR REVOCABLE TRUST OF IRA R SCHWARTZ`: OF after the trust's word, then a
  // name up to a comma, an `&` or the cell's end, is the trust's name.
  if (ts[e + 1]?.key === 'OF') {
    let of = e + 2;
    while (of < ts.length && ts[of]!.key !== ',' && !AMP.has(ts[of]!.key)) of++;
    // A name cut short after its OF (`TRUST OF`): the OF is the trust's, no one's name.
    return of > e + 2 ? of - 1 : e + 1;
  }
  for (;;) {
    const k = ts[end + 1]?.key;
    if (k === undefined) return end;
    if (TRUST_ENDINGS.has(k) || NUMBERED_TRUST.test(k) || (k === 'T' && end + 2 === ts.length)) end++;
    else return end;
  }
}
const NUMBERED_TRUST = /^TR(UST)?#?\d+$/;

/** What trustees may hold for besides a trust, named after them (`GARRITY, ROBERT S, ETAL, TR SOJOURNERS CHURCH`). */
const HELD_FOR = new Set<OwnerType>(['Religious', 'Association']);

/** Trustees and what they hold, in one cell (heldAfterTrustees). */
interface Held {
  /** The trustee word: the trustees are the words up to it. */
  marker: number;
  /** The held name's first word (after a lead-in, OF, UNDER...) and last. */
  start: number;
  end: number;
  type: OwnerType;
}

/**
 * Where the trustees end and what they hold begins in one cell, by the first of three rules that finds it after a
 * trustee word (or null):
 * - a trust's name ending with TR, TRUST or LD not just after a comma: `SEIDMAN, JOSHUA M & JERI K, TR SEIDMAN LIVING
 *   TR`, `MAIN, RALPH TR OF BLACK DUCK LD TR`, `WILLIAMS, J & D PETTIT, TR ADVANCE AUTO LD` (`NIDEVER, DAVID L, TR
 *   REINES, AMY E, TR` is two trustees);
 * - after a trustee word glued to it, one name to the cell's end (no comma, no `&`), a Trust unless its words make it
 *   a church's or an association's: `CALLAGHAN, ROBERT ETAL TR-HOLLIDAY`, `CARTER, RICHARD TR-1314 OXFORD PL L`;
 * - a church's or an association's name of two words or more to the cell's end: `GARRITY, ROBERT S, ETAL, TR
 *   SOJOURNERS CHURCH`.
 */
function heldAfterTrustees(ts: readonly Tok[], order: NameOrder): Held | null {
  const marker = ts.findIndex((t, i) => i >= 1 && i < ts.length - 1 && TRUSTEE_MARKERS.has(t.key));
  if (marker < 0) return null;
  let start = marker + 1;
  while (start < ts.length && TRUST_LEAD_INS.has(ts[start]!.key)) start++;
  for (let e = marker + 2; e < ts.length; e++) {
    if (TRUST_ENDINGS.has(ts[e]!.key) && ts[e - 1]!.key !== ',')
      return { marker, start: Math.min(start, e), end: trustEnd(ts, e), type: 'Trust' };
  }
  const held = ts.slice(start);
  if (held.length === 0 || held.some((t) => t.key === ',' || AMP.has(t.key))) return null;
  const type = entityType(held, order);
  const church = type !== null && HELD_FOR.has(type);
  if (ts[marker]!.text.endsWith('-')) return { marker, start, end: ts.length - 1, type: church ? type : 'Trust' };
  return held.length >= 2 && church ? { marker, start, end: ts.length - 1, type } : null;
}

function ownersOfSegment(seg: Tok[], order: NameOrder, previous: ParsedOwner | null): ParsedOwner[] {
  const ts = trimConnectors(dropMarkers(seg));
  if (ts.length === 0) return [];
  const held = heldAfterTrustees(ts, order);
  if (held) {
    const trustees = ts.slice(0, held.marker + 1);
    // A suffix after the trust's last word is its name's (`FRANKLIN LD TR III`), not an owner of its own.
    let end = held.end + 1;
    while (end < ts.length && SUFFIXES.has(ts[end]!.key)) end++;
    const trust: ParsedOwner = {
      fullName: joinText(ts.slice(held.start, end)),
      firstName: null,
      middleName: null,
      lastName: null,
      suffix: null,
      type: held.type,
    };
    const before = ownersOfSegment(trustees, order, previous);
    // More trustees and trusts after this trust's name (`... REVOCABLE TR & COLLEY, THOMAS MICHAEL, TR ...`).
    const rest = ownersOfSegment(ts.slice(end), order, trust);
    return [...before, trust, ...rest];
  }
  const type = entityType(ts, order);
  if (type !== null) {
    // Two owners joined by `&`, the first closed by its legal form or a trustee word, the second an owner of its own,
    // an entity or a person written LAST, FIRST or as trustee (`DALTON, PAUL REV TRST &` / `HOAG, ANNE B REV TRST`,
    // `OPENHEIMER, ARTHUR F CO-TRUSTEE & SUNTRUST BANK`): each read alone, not one entity named by both. Not
    // `SMITH & WESSON INC` (SMITH closes nothing) nor `ABC INC AND SUBSIDIARIES` (no owner after it).
    const amp = ts.findIndex(
      (t, i) =>
        i > 0 &&
        i < ts.length - 1 &&
        JOINS.has(t.key) &&
        closesOwner(ts[i - 1]!) &&
        ownerOfItsOwn(ts.slice(i + 1), order),
    );
    if (amp > 0) {
      const first = ownersOfSegment(ts.slice(0, amp), order, previous);
      return [...first, ...ownersOfSegment(ts.slice(amp + 1), order, first[first.length - 1] ?? previous)];
    }
    return [{ fullName: joinText(ts), firstName: null, middleName: null, lastName: null, suffix: null, type }];
  }
  // Trustee words stay for the comma parse (they close an owner there); the other parses drop them.
  const trustee = ts.some((t) => TRUSTEE_MARKERS.has(t.key));
  const out: ParsedOwner[] = [];
  // The owner before, whose surname a co-owner may share (personsOf).
  for (const p of personsOf(ts, order, kinOf(previous))) {
    const o = personOwner(p, trustee ? 'Trustee' : 'Individual');
    if (o) out.push(o);
  }
  return out;
}

/** The owners written in one or two cells (owner_1, owner_2 of one roll row). Returns each owner once, in order. */
export function parseOwnerCells(cells: readonly (string | null | undefined)[], order: NameOrder): ParsedOwner[] {
  if (cells.length > MAX_CELLS) throw new RangeError(`at most ${MAX_CELLS} owner cells, got ${cells.length}`);
  const segments: Tok[][] = [];
  for (const cell of cells) {
    const ts = tokens(cell, order);
    if (dropMarkers(ts).length === 0) continue;
    const prev = segments[segments.length - 1];
    if (contactLine(ts, prev, order)) continue;
    if (prev && continues(dropMarkers(prev), ts, order)) prev.push(...ts);
    else segments.push(ts);
  }
  const out: ParsedOwner[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const prevOwner = out[out.length - 1] ?? null;
    let owners = ownersOfSegment(seg, order, prevOwner);
    const next = segments[i + 1];
    if (
      order === 'last-first' &&
      next !== undefined &&
      turnsBeforeKinCell(dropMarkers([...seg]), owners, dropMarkers([...next]))
    ) {
      // Kept where the next cell, read under it, shares its surname (not `JOHN VACCA` / `MARY ELLEN`, read ELLEN MARY).
      const flipped = ownersOfSegment(seg, 'first-last', prevOwner);
      const [owner] = flipped;
      if (owner && ownersOfSegment(next, order, owner).some((o) => o.lastName === owner.lastName)) owners = flipped;
    }
    for (const o of owners) {
      const id = `${o.type}|${o.fullName}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(o);
    }
  }
  return out;
}

/**
 * The record's owners from a row's parsed owners: four (owner1 to owner4, as the incumbent's records have). owner1 is
 * the first the roll names. owner2 is, of the others, the first an owner search could not find through owner1: an
 * entity, or a person of another surname (`GALBRAITH, M A & M M TTEES` / `GALBRAITH, MARGARET A REV TRST` keeps the
 * trust, the parcel's titled owner, over the second trustee; `SMITH JOHN & MARY` / `JONES ROBERT` keeps ROBERT JONES,
 * where MARY SMITH is found by SMITH through owner1); when each shares owner1's surname, the next. owner3 and owner4
 * are the others in the roll's order. A name already kept is not kept again (the same name as a trustee and as a
 * person). Middle names and suffixes are in `fullName`. An owner past the fourth is not kept (1 row of the three real
 * rolls names five): recordOwnersOf gives them apart, for the import's report.
 */
export function recordOwners(owners: readonly ParsedOwner[]): RecordOwners {
  return recordOwnersOf(owners).owners;
}

/** No owner left out: one array for every row that names four owners or fewer (nearly all), not one a row. */
export const ALL_KEPT: readonly string[] = Object.freeze([]);

/** recordOwners, and the full names of the owners past the fourth, which the record has no place for. */
export function recordOwnersOf(owners: readonly ParsedOwner[]): { owners: RecordOwners; notKept: readonly string[] } {
  const [first, ...rest] = owners;
  if (!first) return { owners: byOwnerField(() => null), notKept: ALL_KEPT };
  const others = rest.filter((o) => o.fullName !== first.fullName);
  const sameSurname = (o: ParsedOwner) => first.lastName !== null && o.lastName === first.lastName;
  const second = others.find((o) => !sameSurname(o)) ?? others[0];
  const after: ParsedOwner[] = [];
  for (const o of others)
    if (o.fullName !== second?.fullName && !after.some((k) => k.fullName === o.fullName)) after.push(o);
  const kept = second === undefined ? [first] : [first, second, ...after];
  return {
    owners: byOwnerField((_, i) => ownerInput(kept[i])),
    notKept: kept.length > OWNER_FIELDS.length ? kept.slice(OWNER_FIELDS.length).map((o) => o.fullName) : ALL_KEPT,
  };
}

/** A parsed owner as a record's owner. */
function ownerInput(o: ParsedOwner | undefined): OwnerInput | null {
  return o ? { firstName: o.firstName, lastName: o.lastName, fullName: o.fullName, type: o.type } : null;
}
