// The owner-name parser on generated cells: persons drawn from the census surnames and SSA first names in
// ../shared/data/reference, written the ways the rolls write them (LAST FIRST M, LAST, FIRST M, two owners in a cell,
// a cell ending in AND continued on the next, tenancy markers), and entities built from the entity words. Whatever
// the draw: every owner comes out once with its own first and last name, no word of a name is lost, an entity keeps
// its whole name, and the work is bounded by the cut cell whatever the input's length.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isCommonSurname,
  isFirstName,
  FIRST_NAME_FILES,
  isWomansName,
  mostlyGivenName,
  readsFirstLast,
} from '../src/domain/name-frequencies.js';
import {
  ENTITY_PHRASES_ALSO_GIVEN,
  SECOND_GIVEN_NAMES,
  SURNAME_PARTICLES,
  WORD_TYPE,
} from '../src/domain/owner-words.js';
import { referenceRows } from '../src/domain/reference-files.js';
import {
  MAX_CELL_CHARS,
  type NameOrder,
  parseOwnerCells,
  type ParsedOwner,
  recordOwners,
} from '../src/domain/owner-names.js';

/** A reference list's first column (services/ingest/reference: the hand-out's lists, shipped with the importer). */
const column = (file: string) =>
  referenceRows(file)
    .map((r) => r[0]!.trim().toUpperCase())
    .filter((w) => /^[A-Z]+$/.test(w));
const SURNAMES = column('census-2010-surnames-top1000.csv');
const FIRST_NAMES = [...new Set(FIRST_NAME_FILES.flatMap(column))];

interface Person {
  last: string;
  first: string;
  middle: string | null;
}

/**
 * A person written LAST FIRST is read so, but for the 0.1% of draws the census' and the SSA's lists read the other
 * way round, as a reader would (`JAMES MARTIN`, `COOPER WILSON`: name-frequencies.ts): those are drawn apart, by
 * `firstLastPerson`, written FIRST LAST.
 */
const person = (last?: string): fc.Arbitrary<Person> =>
  fc
    .record({
      last: last === undefined ? fc.constantFrom(...SURNAMES) : fc.constant(last),
      first: fc.constantFrom(...FIRST_NAMES),
      middle: fc.option(fc.constantFrom(...'ABCDEFGHJKLMNPRSTW'.split('')), { nil: null }),
    })
    .filter((p) => !readsFirstLast(p.last, p.first));

/**
 * Every pair of the lists that they read FIRST LAST (a first name and a common surname: `JAMES HILL`), but for
 * surnames that are entity words (`GRACE CHURCH` is a church, whatever the lists say of GRACE).
 */
const FIRST_LAST_PAIRS = FIRST_NAMES.flatMap((first) =>
  SURNAMES.filter((last) => !WORD_TYPE.has(last) && readsFirstLast(first, last)).map((last) => ({ first, last })),
);

const given = (p: Person) => (p.middle ? `${p.first} ${p.middle}` : p.first);
const lastFirst = (p: Person) => `${p.last} ${given(p)}`;
const commaForm = (p: Person) => `${p.last}, ${given(p)}`;
const marker = fc.constantFrom(
  '',
  ' ET AL',
  ' ETAL',
  ' ETUX',
  ' ET UX',
  ' JTRS',
  ' TIC',
  ' ET VIR',
  ' JT TEN',
  ' TEN ENT',
  ' EX',
);

/** A roll row's owner cells and the persons they name, in order. */
type Row = { cells: string[]; persons: Person[] };

const oneCell: fc.Arbitrary<Row> = fc
  .tuple(person(), fc.boolean(), marker)
  .map(([p, comma, m]) => ({ cells: [`${comma ? commaForm(p) : lastFirst(p)}${m}`], persons: [p] }));

const coupleSameSurname: fc.Arbitrary<Row> = person()
  .chain((p) => fc.tuple(fc.constant(p), person(p.last), fc.constantFrom('comma', 'plain', 'and-next-cell', 'hw')))
  .map(([a, b, form]) => {
    if (form === 'comma') return { cells: [`${commaForm(a)} & ${given(b)}`], persons: [a, b] };
    if (form === 'plain') return { cells: [`${lastFirst(a)} & ${given(b)}`], persons: [a, b] };
    if (form === 'and-next-cell') return { cells: [`${lastFirst(a)} AND`, `${given(b)} H/W`], persons: [a, b] };
    return { cells: [`${lastFirst(a)} H/W`, lastFirst(b)], persons: [a, b] };
  });

const coupleTwoSurnames: fc.Arbitrary<Row> = fc
  .tuple(person(), person(), fc.constantFrom('two-cells', 'comma-both', 'comma-then-first-last', 'amp-next-cell'))
  .filter(([a, b]) => a.last !== b.last)
  // `JAMES ROBERT` / `THOMAS JAMES`: a second owner named by the first's surname, after a surname that is a first name
  // more often, reads as FIRST LAST under that surname (owner-persons.ts kinFirstLast), as a reader would take it.
  .filter(
    ([a, b, form]) => !(form === 'two-cells' && b.middle === null && b.first === a.last && mostlyGivenName(b.last)),
  )
  .map(([a, b, form]) => {
    if (form === 'two-cells') return { cells: [lastFirst(a), lastFirst(b)], persons: [a, b] };
    if (form === 'comma-both') return { cells: [`${commaForm(a)} & ${commaForm(b)}`], persons: [a, b] };
    if (form === 'amp-next-cell') return { cells: [`${commaForm(a)} &`, commaForm(b)], persons: [a, b] };
    // `PRICE, RONALD S & JULIE LACY`: the second owner in reading order (without a middle initial, which would
    // read as FIRST M LAST's initial... it does too; kept simple: FIRST LAST).
    return { cells: [`${commaForm(a)} & ${b.first} ${b.last}`], persons: [a, { ...b, middle: null }] };
  });

const rows = fc.oneof(oneCell, coupleSameSurname, coupleTwoSurnames);

const words = (owners: ParsedOwner[]) => new Set(owners.flatMap((o) => o.fullName.split(' ')));

describe('owner names, generated persons', () => {
  it('every owner comes out once, with its own first and last name, and no word of a name is lost', () => {
    fc.assert(
      fc.property(rows, ({ cells, persons }) => {
        const owners = parseOwnerCells(cells, 'last-first');
        const expected = persons.map((p) => `${p.first}|${p.middle ?? '-'}|${p.last}`);
        const distinct = [...new Set(expected)];
        expect(
          owners.map((o) => `${o.firstName}|${o.middleName ?? '-'}|${o.lastName}`),
          cells.join(' / '),
        ).toEqual(distinct);
        for (const o of owners) expect(o.type).toBe('Individual');
        const out = words(owners);
        for (const p of persons)
          for (const w of [p.first, p.last]) expect(out.has(w), `${w} in ${cells.join(' / ')}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
  }, 120_000);

  it("an initial between two names: FIRST M LAST, but the roll's own order where the lists say so", () => {
    // `GEORGE J ALLEN` (a first name first) is FIRST M LAST in a LAST FIRST roll; `DONOHUE W TERRENCE` (a surname that
    // is no first name, then a first name that is no common surname) is LAST, FIRST MIDDLE.
    const firstNames = new Set(FIRST_NAMES);
    const surnames = new Set(SURNAMES);
    const surnameOnly = SURNAMES.filter((w) => !firstNames.has(w) && !WORD_TYPE.has(w));
    const givenOnly = FIRST_NAMES.filter((w) => !surnames.has(w) && !WORD_TYPE.has(w));
    const initial = fc.constantFrom(...'ABCDEFGHJKLMNPRSTW'.split(''));
    fc.assert(
      fc.property(fc.constantFrom(...surnameOnly), initial, fc.constantFrom(...givenOnly), (last, i, given) => {
        const [asWritten] = parseOwnerCells([`${last} ${i} ${given}`], 'last-first');
        expect([asWritten?.lastName, asWritten?.firstName, asWritten?.middleName]).toEqual([last, i, given]);
        const [inOrder] = parseOwnerCells([`${given} ${i} ${last}`], 'last-first');
        expect([inOrder?.lastName, inOrder?.firstName, inOrder?.middleName]).toEqual([last, given, i]);
      }),
      { numRuns: 1000 },
    );
  }, 120_000);

  it("a co-owner written FIRST LAST under the first owner's surname is read so, and the given names after it share it", () => {
    // `NATHAN DORIS L` / `JOSEPH NATHAN & RENEE`: a first name (more often one than a surname), middle names or
    // initials, then the first owner's surname; or the first name alone before `&` and an owner of another surname.
    const kinFirst = FIRST_NAMES.filter((w) => mostlyGivenName(w) && !WORD_TYPE.has(w));
    const middle = fc.option(
      fc.oneof(fc.constantFrom(...'ABCDEFGHJKLMNPRSTW'.split('')), fc.constantFrom(...SURNAMES)),
      { nil: null },
    );
    // Given names after `&`: those the lists know only as first names (`RENEE`, `JULIA ELIZABETH`).
    const givenOnly = FIRST_NAMES.filter((w) => !SURNAMES.includes(w) && !WORD_TYPE.has(w));
    fc.assert(
      fc.property(
        person().filter((p) => !WORD_TYPE.has(p.last)),
        fc.constantFrom(...kinFirst),
        middle,
        fc.option(fc.constantFrom(...givenOnly), { nil: null }),
        fc.option(person(), { nil: null }),
        fc.boolean(),
        (a, first, mid, spouse, other, alone) => {
          fc.pre(first !== a.last && mid !== a.last && !WORD_TYPE.has(mid ?? ''));
          fc.pre(other === null || (other.last !== a.last && other.first !== a.last && other.middle === null));
          // `JOSEPH NATHAN & RENEE`; or, before an owner of another surname written in the roll's order, `JOSEPH NATHAN
          // & SMITH MARY` or `EDWARD & YAFFA JOSEPH` (a first name alone).
          const firstOnly = other !== null && alone;
          const co = firstOnly ? first : `${first}${mid ? ` ${mid}` : ''} ${a.last}`;
          const cells = [lastFirst(a), other ? `${co} & ${lastFirst(other)}` : spouse ? `${co} & ${spouse}` : co];
          const owners = parseOwnerCells(cells, 'last-first');
          const want = [
            `${a.first}|${a.middle ?? '-'}|${a.last}`,
            `${first}|${firstOnly ? '-' : (mid ?? '-')}|${a.last}`,
            ...(other ? [`${other.first}|-|${other.last}`] : spouse ? [`${spouse}|-|${a.last}`] : []),
          ];
          expect(
            owners.map((o) => `${o.firstName}|${o.middleName ?? '-'}|${o.lastName}`),
            cells.join(' / '),
          ).toEqual([...new Set(want)]);
        },
      ),
      { numRuns: 2000 },
    );
  }, 120_000);

  it("two surnames before the given names, the second the first owner's, are the co-owner's surname (LAST1 LAST2 FIRST)", () => {
    // `MOREL PERICLES` / `DE JESUS MOREL ANDREA M`: the shared surname no first name, the other not clearly one.
    const names = (w: string[]) => w.filter((x) => !WORD_TYPE.has(x) && !SURNAME_PARTICLES.has(x));
    fc.assert(
      fc.property(
        person().filter((p) => !WORD_TYPE.has(p.last) && !isFirstName(p.last)),
        fc.constantFrom(...names(SURNAMES).filter((w) => !mostlyGivenName(w))),
        fc.constantFrom(...names(FIRST_NAMES)),
        fc.option(fc.constantFrom(...'ABCDEFGHJKLMNPRSTW'.split('')), { nil: null }),
        (a, other, first, mid) => {
          fc.pre(other !== a.last && first !== a.last);
          const cells = [lastFirst(a), `${other} ${a.last} ${first}${mid ? ` ${mid}` : ''}`];
          const owners = parseOwnerCells(cells, 'last-first');
          expect(
            owners.map((o) => `${o.firstName}|${o.middleName ?? '-'}|${o.lastName}`),
            cells.join(' / '),
          ).toEqual([`${a.first}|${a.middle ?? '-'}|${a.last}`, `${first}|${mid ?? '-'}|${other} ${a.last}`]);
        },
      ),
      { numRuns: 2000 },
    );
  }, 120_000);

  it('first-last order: FIRST M LAST, and two owners joined by &', () => {
    fc.assert(
      fc.property(person(), fc.option(person(), { nil: null }), (a, b) => {
        const text = `${a.first}${a.middle ? ` ${a.middle}` : ''} ${a.last}`;
        const cell = b ? `${text} & ${b.first} ${b.last}` : text;
        const owners = parseOwnerCells([cell], 'first-last');
        const want = [a, ...(b ? [{ ...b, middle: null }] : [])].map((p) => `${p.first}|${p.middle ?? '-'}|${p.last}`);
        expect(owners.map((o) => `${o.firstName}|${o.middleName ?? '-'}|${o.lastName}`)).toEqual([...new Set(want)]);
      }),
      { numRuns: 1000 },
    );
  }, 120_000);

  it('first-last order: first names before & take the surname after them (JOHN A & MARY SMITH)', () => {
    // A first name clearly one (JOHN; not TAYLOR, as often a surname, which stays a surname alone).
    const clearlyGiven = person().filter((p) => mostlyGivenName(p.first));
    fc.assert(
      fc.property(clearlyGiven, person(), fc.constantFrom(...SURNAMES), (a, b, last) => {
        const owners = parseOwnerCells([`${given(a)} & ${given(b)} ${last}`], 'first-last');
        const want = [a, b].map((p) => `${p.first}|${p.middle ?? '-'}|${last}`);
        expect(owners.map((o) => `${o.firstName}|${o.middleName ?? '-'}|${o.lastName}`)).toEqual([...new Set(want)]);
      }),
      { numRuns: 1000 },
    );
  }, 120_000);
});

describe('owner names, compound first names (MARY JO, BETTY ANN)', () => {
  /**
   * A woman's first name and a second given name of SECOND_GIVEN_NAMES, the first none of the census' common surnames;
   * not an entity's name (FANNIE MAE is the bank but after a person's `LAST, FIRST`: the edge cases).
   */
  const compound = fc
    .tuple(
      fc
        .constantFrom(...FIRST_NAMES)
        .filter((w) => isWomansName(w) && !SECOND_GIVEN_NAMES.has(w) && !WORD_TYPE.has(w) && !isCommonSurname(w)),
      fc.constantFrom(...SECOND_GIVEN_NAMES),
    )
    .filter(([first, second]) => !ENTITY_PHRASES_ALSO_GIVEN.has(`${first}-${second}`));
  it('after & in a cell with commas, or in a cell of its own, a compound first name shares the surname before it', () => {
    fc.assert(
      fc.property(
        person().filter((p) => !WORD_TYPE.has(p.last)),
        compound,
        fc.constantFrom('comma', 'plain', 'own-cell'),
        (a, [first, second], form) => {
          const cells =
            form === 'comma'
              ? [`${commaForm(a)} & ${first} ${second}`]
              : form === 'plain'
                ? [`${lastFirst(a)} & ${first} ${second}`]
                : [lastFirst(a), `${first} ${second}`];
          const owners = parseOwnerCells(cells, 'last-first');
          const want = [`${a.first}|${a.middle ?? '-'}|${a.last}`, `${first}|${second}|${a.last}`];
          expect(owners.map((o) => `${o.firstName}|${o.middleName ?? '-'}|${o.lastName}`)).toEqual(want);
        },
      ),
      { numRuns: 1000 },
    );
  }, 120_000);
});

describe('owner names, a co-owner after & opening with the surname before it', () => {
  it('LAST, FIRST M & LAST FIRST M (or & LAST OTHER, FIRST): of that family (LI, XUDONG & LI JIN is JIN LI)', () => {
    fc.assert(
      fc.property(
        person().filter((p) => !isFirstName(p.last) && !WORD_TYPE.has(p.last)),
        fc.constantFrom(...FIRST_NAMES),
        fc.option(fc.constantFrom(...'ABCDEFGHJKLMNPRSTW'.split('')), { nil: null }),
        fc.option(
          fc.constantFrom(...SURNAMES).filter((w) => !isFirstName(w) && !WORD_TYPE.has(w)),
          { nil: null },
        ),
        fc.constantFrom<NameOrder>('last-first', 'first-last'),
        (a, first, middle, other, order) => {
          // `SMITH, JOHN & SMITH MARY K`, or `SMITH, JOHN & SMITH JONES, MARY` (MARY SMITH JONES).
          const b: Person = { last: other ? `${a.last} ${other}` : a.last, first, middle };
          fc.pre(other !== a.last);
          const second = other ? `${b.last}, ${given(b)}` : lastFirst(b);
          const owners = parseOwnerCells([`${commaForm(a)} & ${second}`], order);
          const want = [a, b].map((p) => `${p.first}|${p.middle ?? '-'}|${p.last}`);
          expect(owners.map((o) => `${o.firstName}|${o.middleName ?? '-'}|${o.lastName}`)).toEqual([...new Set(want)]);
        },
      ),
      { numRuns: 1000 },
    );
  }, 120_000);
});

const ENTITY_FORMS: ((w: string, p: Person) => { text: string; type: string })[] = [
  (w) => ({ text: `${w} HOLDINGS LLC`, type: 'Corporation' }),
  (w) => ({ text: `${w} PROPERTIES L.L.C.`, type: 'Corporation' }),
  (w) => ({ text: `${w} & SONS INC`, type: 'Corporation' }),
  (w) => ({ text: `123 ${w} ST LP`, type: 'Corporation' }),
  (w) => ({ text: `${w} FAMILY TRUST`, type: 'Trust' }),
  (_, p) => ({ text: `${p.first} ${p.last} REVOCABLE LIVING TRUST`, type: 'Trust' }),
  (_, p) => ({ text: `ESTATE OF ${p.first} ${p.last}`, type: 'Estate' }),
  (_, p) => ({ text: `${p.last} ${p.first} HEIRS`, type: 'Estate' }),
  (w) => ({ text: `CITY OF ${w}`, type: 'Government' }),
  (w) => ({ text: `${w} COUNTY HOUSING AUTHORITY`, type: 'Government' }),
  (w) => ({ text: `${w} SCHOOL DISTRICT`, type: 'Government' }),
  (w) => ({ text: `${w} BAPTIST CHURCH`, type: 'Religious' }),
  (w) => ({ text: `ST ${w} PARISH`, type: 'Religious' }),
  (w) => ({ text: `${w} CONDOMINIUM ASSOCIATION`, type: 'Association' }),
  (w) => ({ text: `${w} NATIONAL BANK`, type: 'Financial' }),
  (w) => ({ text: `${w} MORTGAGE CORP`, type: 'Financial' }),
];

describe('owner names, generated entities', () => {
  it('an entity keeps its whole name, typed, never split into first and last, alone or beside a person', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ENTITY_FORMS),
        fc.constantFrom(...SURNAMES),
        person(),
        fc.option(person(), { nil: null }),
        (form, word, p, other) => {
          const { text, type } = form(word, p);
          const cells = other ? [text, lastFirst(other)] : [text];
          const owners = parseOwnerCells(cells, 'last-first');
          expect(owners[0], cells.join(' / ')).toEqual({
            fullName: text,
            firstName: null,
            middleName: null,
            lastName: null,
            suffix: null,
            type,
          });
          if (other) expect(owners.slice(1).map((o) => [o.firstName, o.lastName])).toEqual([[other.first, other.last]]);
        },
      ),
      { numRuns: 2000 },
    );
  }, 120_000);
});

// An owner's share written after a name (Lebanon's `(50%)`, `(1/2)`, `1/2 INT`) is no part of it: the same owners
// come out with it as without. A number that is no share (`110%`, `(12/05)`, a percentage first) stays in the name.
const share = fc.oneof(
  fc.integer({ min: 1, max: 100 }).map((n) => `(${n}%)`),
  fc
    .tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 60 }))
    .map(([a, b]) => `(${Math.min(a, b)}/${Math.max(a, b)})`),
  fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 2, max: 99 }))
    .filter(([a, b]) => a <= b)
    .map(([a, b]) => `${a}/${b} INT`),
  fc.constantFrom('(33.33%)', '1/2 INTEREST', '(1/54 INT EACH)'),
);

describe('owner names, shares', () => {
  it("a share after any cell changes no owner; a number that is no share stays in an entity's name", () => {
    fc.assert(
      fc.property(
        rows,
        fc.array(fc.option(share, { nil: null }), { minLength: 2, maxLength: 2 }),
        ({ cells }, shares) => {
          const withShares = cells.map((c, i) => (shares[i] ? `${c} ${shares[i]}` : c));
          expect(parseOwnerCells(withShares, 'last-first'), withShares.join(' / ')).toEqual(
            parseOwnerCells(cells, 'last-first'),
          );
        },
      ),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...SURNAMES),
        fc.oneof(
          fc.integer({ min: 101, max: 999 }).map((n) => ({ at: 'start', text: `${n}%` })),
          fc.integer({ min: 1, max: 100 }).map((n) => ({ at: 'start', text: `${n}%` })),
          fc
            .tuple(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 31 }))
            .filter(([a, b]) => a > b)
            .map(([a, b]) => ({ at: 'end', text: `${a}/${b}` })),
          fc
            .tuple(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 31 }))
            .filter(([a, b]) => a > b)
            .map(([a, b]) => ({ at: 'end', text: `(${a}/${b})` })),
        ),
        (word, { at, text }) => {
          const name = at === 'start' ? `${text} ${word} HOLDINGS LLC` : `${word} FAMILY TRUST ${text}`;
          const [owner] = parseOwnerCells([name], 'last-first');
          // Brackets are no part of a name (tokens), the number is.
          expect(owner?.fullName, name).toBe(name.replace(/[()]/g, ''));
        },
      ),
      { numRuns: 1000 },
    );
  }, 120_000);
});

describe('owner names, any text', () => {
  it('never throws on one or two cells; each owner once; every output word is a word of the input', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string({ maxLength: 300 }), { nil: null }), { maxLength: 2 }), (cells) => {
        const owners = parseOwnerCells(cells, 'last-first');
        const ids = owners.map((o) => `${o.type}|${o.fullName}`);
        expect(new Set(ids).size).toBe(ids.length);
        // Brackets, quotes and the like are dropped from names (owner-names.ts tokens()).
        const input = cells
          .join(' ')
          .toUpperCase()
          .replace(/[()"[\]{};:]/g, '');
        for (const o of owners) {
          expect(o.fullName.trim()).not.toBe('');
          for (const w of o.fullName.replace(/,/g, ' ').split(' ').filter(Boolean)) expect(input).toContain(w);
        }
      }),
      { numRuns: 2000 },
    );
  }, 120_000);

  it("cells of the parser's own words, in either order: persons with a surname, entities unsplit, each once, no word made up", () => {
    // The words the parser decides by, drawn into cells: markers, trustee words, titles, entity words that are names
    // too, connectors, suffixes, particles, shares and brackets.
    const WORDS = [
      'SMITH',
      'JOHN',
      'MARY',
      'HILL',
      'JAMES',
      '&',
      'AND',
      ',',
      'TR',
      'TTEE',
      'TRUSTEES',
      'TR-OAK',
      'LLC',
      'INC',
      'TRUST',
      'TRST',
      'LD',
      'JT',
      'TEN',
      'ENT',
      'EX',
      'ET',
      'AL',
      'C/O',
      '%',
      'DR',
      'REV',
      'CHURCH',
      'GRACE',
      'ESTATE',
      'OF',
      'JR',
      'III',
      'A',
      'B',
      'DE',
      'VAN',
      '(',
      ')',
      '1/2',
      '50%',
      '+',
      'H/W',
      'CO',
      'HOA',
      'BOARD',
      'DBA',
      'LIFE',
      'EST',
      'SUCCESSOR',
    ];
    const cell = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(
        fc.array(cell, { minLength: 1, maxLength: 2 }),
        fc.constantFrom<'last-first' | 'first-last'>('last-first', 'first-last'),
        (cells, order) => {
          const owners = parseOwnerCells(cells, order);
          const ids = owners.map((o) => `${o.type}|${o.fullName}`);
          expect(new Set(ids).size, cells.join(' / ')).toBe(ids.length);
          const input = new Set(cells.join(' ').replace(/[(),]/g, ' ').split(/[\s]+/));
          for (const o of owners) {
            expect(o.fullName.trim(), cells.join(' / ')).not.toBe('');
            if (o.type === 'Individual' || o.type === 'Trustee') expect(o.lastName, cells.join(' / ')).not.toBeNull();
            else expect([o.firstName, o.lastName], cells.join(' / ')).toEqual([null, null]);
            for (const w of o.fullName.replace(/[(),]/g, ' ').split(' ').filter(Boolean))
              expect(input.has(w) || [...input].some((x) => x.includes(w)), `${w} in ${cells.join(' / ')}`).toBe(true);
          }
          const [owner1, owner2] = recordOwners(owners);
          if (owner1 && owner2) expect(owner2.fullName, cells.join(' / ')).not.toBe(owner1.fullName);
        },
      ),
      { numRuns: 5000 },
    );
  }, 120_000);

  it('a long cell is cut at MAX_CELL_CHARS (at a space) before it is read: what comes out is bounded', () => {
    const long = `${'SMITH JOHN & '.repeat(20_000)}MARY`;
    const owners = parseOwnerCells([long, long], 'last-first');
    const chars = owners.reduce((n, o) => n + o.fullName.length, 0);
    expect(chars).toBeLessThanOrEqual(2 * MAX_CELL_CHARS);
    // The cut ends with a lone SMITH: a first name sharing the surname before it.
    expect(owners.map((o) => o.fullName)).toEqual(['JOHN SMITH', 'SMITH SMITH']);
    const entity = parseOwnerCells([`${'ACME '.repeat(50_000)}LLC`], 'last-first');
    expect(entity).toHaveLength(1);
    expect(entity[0]!.fullName.length).toBeLessThanOrEqual(MAX_CELL_CHARS);
    expect(() => parseOwnerCells(['A', 'B', 'C', 'D', 'E'], 'last-first')).toThrow(RangeError);
  });

  it("the record's four owners: the roll's first, the first other an owner search could not find through it, then the rest in order; no name lost", () => {
    // Three or four owners over two cells: a couple in the first (one surname, or two), another couple or an entity in
    // the second; or an entity first.
    const couple = fc.oneof(coupleSameSurname, coupleTwoSurnames).filter((r) => r.cells.length === 1);
    const entity = fc
      .tuple(fc.constantFrom(...SURNAMES), person(), fc.nat(ENTITY_FORMS.length - 1))
      .map(([w, p, f]) => ({ cells: [ENTITY_FORMS[f]!(w, p).text], persons: [] as Person[] }));
    const cell = fc.oneof(couple, couple, entity);
    // Two cells or three (up to six owners: past the four places).
    const cellsOfRow = fc.array(cell, { minLength: 2, maxLength: 3 });
    let pastFour = 0;
    fc.assert(
      fc.property(cellsOfRow, (row) => {
        const owners = parseOwnerCells(
          row.map((c) => c.cells[0]!),
          'last-first',
        );
        const places = recordOwners(owners);
        const [owner1, owner2, owner3, owner4] = places;
        const cells = row.map((c) => c.cells[0]).join(' / ');
        expect(owner1?.fullName, cells).toBe(owners[0]?.fullName);
        const others = owners.slice(1).filter((o) => o.fullName !== owners[0]!.fullName);
        // After a person: another surname (or an entity) when the row names one; after an entity, or when every other
        // shares the surname: the next owner, as the roll lists them.
        const first = owners[0]!;
        const findable = first.lastName === null ? [] : others.filter((o) => o.lastName !== first.lastName);
        expect(owner2?.fullName ?? null, cells).toBe((findable[0] ?? others[0])?.fullName ?? null);
        if (owner2) expect(owner2.fullName, cells).not.toBe(owner1!.fullName);
        // owner3 and owner4: the other names in the roll's order, each once; a place is empty only after the last.
        const kept = places.flatMap((o) => (o ? [o.fullName] : []));
        const names = [...new Set(owners.map((o) => o.fullName))];
        expect(new Set(kept).size, cells).toBe(kept.length);
        // Up to four names, every one is kept; past four, four of them.
        for (const n of kept) expect(names, cells).toContain(n);
        expect(kept.length, cells).toBe(Math.min(4, names.length));
        const rest = names.filter((n) => n !== owner1?.fullName && n !== owner2?.fullName);
        expect([owner3?.fullName ?? null, owner4?.fullName ?? null], cells).toEqual([rest[0] ?? null, rest[1] ?? null]);
        if (names.length > 4) pastFour++;
      }),
      { numRuns: 2000 },
    );
    // Not vacuous: rows of more than four owners were tried.
    expect(pastFour).toBeGreaterThan(50);
  }, 120_000);

  it('a FIRST LAST name the lists read so, in a LAST FIRST roll, is read FIRST LAST, and a first name after it shares its surname', () => {
    expect(FIRST_LAST_PAIRS.length).toBeGreaterThan(1_000);
    fc.assert(
      fc.property(fc.nat(FIRST_LAST_PAIRS.length - 1), fc.constantFrom(...FIRST_NAMES), (i, spouse) => {
        const { first, last } = FIRST_LAST_PAIRS[i]!;
        const owners = parseOwnerCells([`${first} ${last}`, spouse], 'last-first');
        expect(owners[0], `${first} ${last}`).toMatchObject({ firstName: first, lastName: last, type: 'Individual' });
        if (spouse !== first) expect(owners[1]).toMatchObject({ firstName: spouse, lastName: last });
      }),
      { numRuns: 1000 },
    );
  });
});
