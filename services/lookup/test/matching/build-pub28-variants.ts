// Builds the labelled Pub 28 address-matching set (issue 26): a small synthetic county file in USPS standard form
// (pub28-store.csv, imported by address-matching-pub28.test.ts with pub28-mapping.json) and the queries people write
// for its records (pub28-variants.csv):
//   npx tsx services/lookup/test/matching/build-pub28-variants.ts
// The records are written from USPS Publication 28 (street suffixes, secondary unit designators; the hand-out's
// tables as committed in shared/core/data) with street names from the census 1993 and TIGER top-100 lists
// (services/ingest/reference), on real ZIPs. Deterministic: one seeded PRNG, no clock.
//
// Every label is the stored record the query was written for, by construction: the builder composes the stored line
// and the query from the same parts (house number, directionals, name, suffix, designator, unit id) and never calls
// the normaliser under test (shared/core/src/address). The expectation of a query:
//   apn:X      the record X must be among the answers, and no other record may be;
//   all:X|Y|Z  exactly these records (one building stored under two spellings, asked without a unit);
//   none       only a 404 is right: the query could mean several records, or asks a unit the store lacks at an
//              address without a building record.
// House numbers are unique within a city (not only a ZIP: a third of the queries give city and state) and so are
// street names, except where a case puts a distractor beside its record on purpose (the same number on the same
// name with another suffix or directional, a sibling house number, ...): cases never meet each other.
import { readFileSync, writeFileSync } from 'node:fs';

const ROOT = new URL('../../../../', import.meta.url);
const rows = (path: string) =>
  readFileSync(new URL(path, ROOT), 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(',').map((c) => c.trim()));

// --- Pub 28 ---------------------------------------------------------------------------------------------------
const SUFFIX_PAIRS = rows('shared/core/data/usps-pub28-street-suffixes.csv').map(([w, a]) => [
  w!.toUpperCase(),
  a!.toUpperCase(),
]);
const DESIGNATOR_PAIRS = rows('shared/core/data/usps-pub28-secondary-designators.csv').map(([w, a]) => [
  w!.toUpperCase(),
  a!.toUpperCase(),
]);
/** Suffix abbreviation -> the first word Pub 28 gives for it ("PKWY" -> "PARKWAY"). */
const SUFFIX_WORD = new Map<string, string>();
for (const [w, a] of SUFFIX_PAIRS) if (!SUFFIX_WORD.has(a!)) SUFFIX_WORD.set(a!, w!);
const DESIGNATOR_WORD = new Map(DESIGNATOR_PAIRS.map(([w, a]) => [a!, w!]));
const DIRECTIONS: Record<string, string> = {
  N: 'NORTH',
  S: 'SOUTH',
  E: 'EAST',
  W: 'WEST',
  NE: 'NORTHEAST',
  NW: 'NORTHWEST',
  SE: 'SOUTHEAST',
  SW: 'SOUTHWEST',
};
const OPPOSITE: Record<string, string> = { N: 'S', S: 'N', E: 'W', W: 'E', NE: 'SW', SW: 'NE', NW: 'SE', SE: 'NW' };
// Suffixes that are also designators or state codes (TRAILER/TRLR, KEY/KY) are left to the hand-written cases.
const SUFFIXES = [...SUFFIX_WORD.keys()].filter((a) => !['TRLR', 'KY', 'KYS'].includes(a));
const COMMON_SUFFIXES = ['ST', 'AVE', 'BLVD', 'DR', 'RD', 'LN', 'CT', 'PL', 'WAY', 'TER', 'PKWY', 'CIR', 'PLZ', 'TRL'];

// --- Street names -------------------------------------------------------------------------------------------
const SPELLED_ORDINALS = [
  'FIRST',
  'SECOND',
  'THIRD',
  'FOURTH',
  'FIFTH',
  'SIXTH',
  'SEVENTH',
  'EIGHTH',
  'NINTH',
  'TENTH',
  'ELEVENTH',
  'TWELFTH',
  'THIRTEENTH',
  'FOURTEENTH',
  'FIFTEENTH',
  'SIXTEENTH',
  'SEVENTEENTH',
  'EIGHTEENTH',
  'NINETEENTH',
  'TWENTIETH',
];
const ordinal = (n: number) => {
  const t = n % 100;
  const s = t >= 11 && t <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
};
/** "Second" -> "2nd", "Twenty-first" -> "21st"; other names as they are. */
const numericName = (name: string) => {
  const u = name.toUpperCase();
  const i = SPELLED_ORDINALS.indexOf(u);
  if (i >= 0) return ordinal(i + 1);
  const m = /^TWENTY-(\w+)$/.exec(u);
  if (m && SPELLED_ORDINALS.indexOf(m[1]!) >= 0) return ordinal(20 + SPELLED_ORDINALS.indexOf(m[1]!) + 1);
  return name;
};
// Words a name must not hold: a suffix, a directional or a designator would make the line mean something else.
const RESERVED = new Set([
  ...SUFFIX_PAIRS.flat(),
  ...DESIGNATOR_PAIRS.flat(),
  ...Object.keys(DIRECTIONS),
  ...Object.values(DIRECTIONS),
  'BROADWAY',
]);
const NAMES = [
  ...new Set([
    ...rows('services/ingest/reference/census-1993-common-street-names.csv').map(([n]) => numericName(n!)),
    ...readFileSync(new URL('services/ingest/reference/tiger-top-100-street-names.txt', ROOT), 'utf8')
      .split(/\r?\n/)
      .map((l) => l.trim().replace(/^\d+\s+/, ''))
      .map(numericName),
  ]),
]
  .filter((n) => n.length > 1)
  .filter(
    (n) =>
      !n
        .toUpperCase()
        .split(/[\s-]+/)
        .some((w) => RESERVED.has(w)),
  );
const ORDINAL_NAMES = NAMES.filter((n) => /^\d/.test(n));

// --- Random ---------------------------------------------------------------------------------------------------
let seed = 28;
/** mulberry32 */
const rnd = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const chance = (p: number) => rnd() < p;
const sample = <T>(xs: readonly T[], n: number): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, n);
};

// --- Places ---------------------------------------------------------------------------------------------------
interface Place {
  zip: string;
  city: string;
  state: string;
  county: string;
  /** Post-directionals the city's streets carry (quadrant cities), if any. */
  quadrants?: string[];
}
const place = (zip: string, city: string, state: string, county: string, quadrants?: string[]): Place => ({
  zip,
  city,
  state,
  county,
  ...(quadrants ? { quadrants } : {}),
});
// Cities and counties as the GeoNames ZIP file the importer reads has them.
const CHI = ['60601', '60603', '60604', '60606', '60611', '60615'].map((z) => place(z, 'Chicago', 'IL', 'Cook'));
const FTL = ['33301', '33304', '33312'].map((z) => place(z, 'Fort Lauderdale', 'FL', 'Broward'));
const NYC = ['10038', '10027', '10025', '10001'].map((z) => place(z, 'New York', 'NY', 'New York'));
const BKN = ['11238', '11215'].map((z) => place(z, 'Brooklyn', 'NY', 'Kings'));
const SAC = ['95814', '95811', '95816'].map((z) => place(z, 'Sacramento', 'CA', 'Sacramento'));
const CLT = ['28202', '28203'].map((z) => place(z, 'Charlotte', 'NC', 'Mecklenburg'));
const BOS = ['02116', '02115'].map((z) => place(z, 'Boston', 'MA', 'Suffolk'));
const OTHER = [
  place('98101', 'Seattle', 'WA', 'King'),
  place('80202', 'Denver', 'CO', 'Denver'),
  place('97205', 'Portland', 'OR', 'Multnomah'),
  place('37203', 'Nashville', 'TN', 'Davidson'),
  place('07102', 'Newark', 'NJ', 'Essex'),
  place('19103', 'Philadelphia', 'PA', 'Philadelphia'),
];
const WPB = place('33415', 'West Palm Beach', 'FL', 'Palm Beach', ['W', 'E', 'N', 'S']);
const STP = place('33702', 'Saint Petersburg', 'FL', 'Pinellas', ['N', 'S']);
const CDR = place('52402', 'Cedar Rapids', 'IA', 'Linn', ['NE', 'SE', 'NW', 'SW']);
const ATL = ['30306', '30309'].map((z) => place(z, 'Atlanta', 'GA', 'Fulton', ['NE', 'NW']));
const DC = place('20001', 'Washington', 'DC', 'District of Columbia', ['NW', 'NE']);
const MPLS = place('55414', 'Minneapolis', 'MN', 'Hennepin', ['SE', 'NE']);
const SEA = place('98104', 'Seattle', 'WA', 'King', ['S', 'N']);
const GRID = [...CHI, ...FTL, ...NYC, ...BKN, ...SAC, ...CLT, ...BOS, ...OTHER];
const QUADRANT = [WPB, STP, CDR, ...ATL, DC, MPLS, SEA];
const [C60601, C60603, , C60606, , C60615] = CHI as [Place, Place, Place, Place, Place, Place];
const byZip = (zip: string) => [...GRID, ...QUADRANT].find((p) => p.zip === zip)!;

// --- The store ------------------------------------------------------------------------------------------------
interface Street {
  pre: string;
  /** As the name lists write it ("McKinley", "2nd"); stored upper case. */
  name: string;
  type: string;
  post: string;
}
interface StoredRecord {
  apn: string;
  line1: string;
  unit: string;
  place: Place;
  use: string;
}
const store: StoredRecord[] = [];
const numbersByCity = new Map<string, Set<string>>();
const namesByCity = new Map<string, Set<string>>();
const cityOf = (p: Place) => `${p.city}|${p.state}`;
const inCity = (m: Map<string, Set<string>>, p: Place) => {
  const s = m.get(cityOf(p)) ?? new Set<string>();
  m.set(cityOf(p), s);
  return s;
};
// The numbers and names of the hand-written cases (the brief's own addresses), kept from the random ones.
const handWritten = new Map<string, Set<string>>();
const HAND_WRITTEN: [Place, string][] = [
  [C60601, '203'],
  [C60603, '111'],
  [C60606, '223'],
  [C60601, '205'],
  [C60603, '55'],
  [byZip('33312'), '3520'],
  [byZip('10038'), '180'],
  [CDR, '1615'],
  [C60615, '4922'],
  [byZip('28203'), '400'],
  [byZip('95814'), '12'],
  [WPB, '2641'],
  [STP, '9100'],
  [byZip('07102'), '10'],
  [C60606, '233'],
  [byZip('11238'), '20'],
  [byZip('11238'), '39'],
  [byZip('11238'), '50'],
  [byZip('10027'), '543'],
  ...(
    [
      [C60601, 'Wabash'],
      [C60603, 'Monroe'],
      [C60606, 'Jackson'],
      [C60601, 'Michigan'],
      [byZip('33312'), 'Broward'],
      [byZip('10038'), 'Water'],
      [CDR, 'Midland'],
      [C60615, 'Cornell'],
      [byZip('28203'), 'South'],
      [byZip('95814'), 'B'],
      [WPB, 'Gately'],
      [STP, 'MLK Jr'],
      [byZip('07102'), 'Dr Martin Luther King'],
      [C60606, 'Wacker'],
      [byZip('11238'), 'Plaza'],
      [byZip('10027'), '122nd'],
    ] as [Place, string][]
  ).map(([p, n]): [Place, string] => [p, `name:${n.toUpperCase()}`]),
];
for (const [p, k] of HAND_WRITTEN) inCity(handWritten, p).add(k);

/** A house number no other case uses in the city (the letter of "4922B" aside); `fixed` for a hand-written case. */
function claimNumber(p: Place, lo: number, hi: number, fixed?: number): number {
  const used = inCity(numbersByCity, p);
  for (let tries = 0; tries < 1000; tries++) {
    const n = fixed ?? int(lo, hi);
    if (!used.has(String(n)) && (fixed !== undefined || !inCity(handWritten, p).has(String(n)))) {
      used.add(String(n));
      return n;
    }
    if (fixed !== undefined) throw new Error(`house number ${fixed} is used twice in ${p.city}`);
  }
  throw new Error(`no house number left in ${lo}-${hi} in ${p.city}`);
}
/** A street name no other case uses in the city; `fixed` for a hand-written case. */
function claimName(p: Place, pool: readonly string[] = NAMES, fixed?: string): string {
  const used = inCity(namesByCity, p);
  for (let tries = 0; tries < 1000; tries++) {
    const n = fixed ?? pick(pool);
    const k = `name:${n.toUpperCase()}`;
    if (!used.has(k) && (fixed !== undefined || !inCity(handWritten, p).has(k))) {
      used.add(k);
      return n;
    }
    if (fixed !== undefined) throw new Error(`street name ${fixed} is used twice in ${p.city}`);
  }
  throw new Error(`no street name left in ${p.city}`);
}
const randomSuffix = () => (chance(0.6) ? pick(COMMON_SUFFIXES) : pick(SUFFIXES));
const otherSuffix = (not: string) => pick(COMMON_SUFFIXES.filter((s) => s !== not));
function newStreet(p: Place, o: { pre?: number; post?: boolean; names?: readonly string[] } = {}): Street {
  return {
    pre: chance(o.pre ?? 0.4) ? pick(['N', 'S', 'E', 'W']) : '',
    name: claimName(p, o.names),
    type: randomSuffix(),
    post: o.post && p.quadrants ? pick(p.quadrants) : '',
  };
}
const storedLine = (house: string, s: Street) =>
  [house, s.pre, s.name.toUpperCase(), s.type, s.post].filter((w) => w !== '').join(' ');

let block = 0;
/** One address of the county file: its records share an APN block, one lot each. */
class Building {
  readonly block = ++block;
  private lot = 0;
  constructor(
    readonly p: Place,
    readonly house: string,
    readonly street: Street,
    readonly use: string,
  ) {}
  /** A record at this address (or at another spelling of it: `line`), its APN returned. */
  add(unit: string, line = storedLine(this.house, this.street)): string {
    const apn = `${this.p.zip.slice(0, 3)}-${String(this.block).padStart(4, '0')}-${String(++this.lot).padStart(3, '0')}`;
    store.push({ apn, line1: line, unit, place: this.p, use: this.use });
    return apn;
  }
}

// Unit ids as buildings number them: by floor ("608", "1203"), floor and letter ("12C"), or small numbers.
function unitIds(n: number): string[] {
  const style = pick(['floor', 'letter', 'small', 'mixed']);
  const ids = new Set<string>();
  while (ids.size < n) {
    const f = int(2, style === 'letter' ? 24 : 40);
    if (style === 'floor') ids.add(`${f}${String(int(1, 18)).padStart(2, '0')}`);
    else if (style === 'letter') ids.add(`${f}${pick(['A', 'B', 'C', 'D', 'E', 'F'])}`);
    else if (style === 'small') ids.add(String(int(1, 30)));
    else ids.add(pick([`${f}${pick(['A', 'B', 'C'])}`, String(f), `${f}0${int(1, 9)}`]));
  }
  return [...ids];
}

// --- Queries --------------------------------------------------------------------------------------------------
interface Variant {
  cls: string;
  expect: string;
  zip: string;
  city: string;
  state: string;
  address: string;
}
const out: Variant[] = [];
const seen = new Set<string>();
const perClass = new Map<string, number>();
const apn = (x: string) => `apn:${x}`;
const all = (xs: string[]) => `all:${xs.join('|')}`;
/** Adds a query; a third of each class gives city and state instead of the ZIP. */
function q(cls: string, expect: string, p: Place, address: string): void {
  const k = `${cls}|${p.zip}|${address.toUpperCase()}`;
  if (seen.has(k)) return;
  seen.add(k);
  const n = perClass.get(cls) ?? 0;
  perClass.set(cls, n + 1);
  const byCity = n % 3 === 2;
  out.push({
    cls,
    expect,
    zip: byCity ? '' : p.zip,
    city: byCity ? p.city : '',
    state: byCity ? p.state : '',
    address: address.replace(/\s+/g, ' ').trim(),
  });
}

const title = (s: string) =>
  s.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_, a: string, c: string) => a + c.toUpperCase());
type DirStyle = 'abbr' | 'dot' | 'full';
type TypeStyle = 'abbr' | 'dot' | 'full' | 'upper' | 'none';
const writeDir = (d: string, style: DirStyle = pick(['abbr', 'abbr', 'dot', 'full'])) =>
  d === '' ? '' : style === 'full' ? title(DIRECTIONS[d]!) : style === 'dot' ? `${d.split('').join('.')}.` : d;
function writeType(t: string, style: TypeStyle = pick(['abbr', 'abbr', 'dot', 'full', 'upper'])): string {
  const word = SUFFIX_WORD.get(t) ?? t;
  if (style === 'none') return '';
  if (style === 'full' || word === t) return style === 'upper' ? word : title(word);
  if (style === 'upper') return t;
  return style === 'dot' ? `${title(t)}.` : title(t);
}
/** The street as people write it (no house number). */
const writeStreet = (s: Street, o: { type?: TypeStyle; pre?: DirStyle; post?: DirStyle } = {}) =>
  [writeDir(s.pre, o.pre), s.name, writeType(s.type, o.type), writeDir(s.post, o.post)]
    .filter((w) => w !== '')
    .join(' ');
/** Upper or lower case now and then, as typed. */
const casing = (s: string) => {
  const r = rnd();
  return r < 0.12 ? s.toUpperCase() : r < 0.22 ? s.toLowerCase() : s;
};

// === 1. unit-no-designator ======================================================================================
{
  const cls = 'unit-no-designator';
  // The brief's: "203 N. Wabash 608", "111 W. Monroe 12C", "223 W Jackson Blvd 512".
  const fixed: [Place, number, Street, string, string[], string[]][] = [
    [
      C60601,
      203,
      { pre: 'N', name: 'Wabash', type: 'AVE', post: '' },
      'APT',
      ['608', '1203', '2401'],
      ['203 N. Wabash 608', '203 N Wabash Ave 1203', '203 North Wabash Avenue 2401'],
    ],
    [
      C60603,
      111,
      { pre: 'W', name: 'Monroe', type: 'ST', post: '' },
      'APT',
      ['12C', '12', '7A'],
      ['111 W. Monroe 12C', '111 W Monroe St 12', '111 W Monroe 7A'],
    ],
    [
      C60606,
      223,
      { pre: 'W', name: 'Jackson', type: 'BLVD', post: '' },
      'STE',
      ['512', '1400', '600'],
      ['223 W Jackson Blvd 512', '223 W. Jackson 1400', '223 West Jackson Boulevard 600'],
    ],
  ];
  for (const [p, n, s, d, ids, asked] of fixed) {
    claimNumber(p, 0, 0, n);
    claimName(p, NAMES, s.name);
    const b = new Building(p, String(n), s, 'RA');
    const a = ids.map((id) => b.add(`${d} ${id}`));
    for (const [k, line] of asked.entries()) q(cls, apn(a[k]!), p, line);
  }
  for (let i = 0; i < 26; i++) {
    const p = pick(GRID);
    const n = claimNumber(p, 10, 4999);
    const s = newStreet(p, { pre: 0.6 });
    const b = new Building(p, String(n), s, 'RA');
    const d = pick(['APT', 'APT', 'APT', 'STE', 'UNIT']);
    const ids = unitIds(int(3, 5));
    if (chance(0.3)) b.add('');
    const a = ids.map((id) => b.add(`${d} ${id}`));
    // A distractor: the same number on the same name with another suffix, with the same units.
    const twin = i % 5 === 4;
    if (twin) {
      const t = new Building(p, String(n), { ...s, type: otherSuffix(s.type) }, 'RA');
      for (const id of ids) t.add(`${d} ${id}`);
    }
    for (const k of sample([0, 1, 2], 2)) {
      const type: TypeStyle = pick(['none', 'none', 'abbr', 'dot', 'full', 'upper']);
      const sep = chance(0.2) ? ', ' : ' ';
      const address = casing(`${n} ${writeStreet(s, { type })}${sep}${ids[k]!}`);
      q(cls, twin && type === 'none' ? 'none' : apn(a[k]!), p, address);
    }
    if (twin) q(cls, 'none', p, `${n} ${writeStreet(s, { type: 'none' })} ${ids[ids.length - 1]!}`);
  }
}

// === 2. floor-room ==============================================================================================
{
  const cls = 'floor-room';
  const floorWords = (f: number, sep = pick([' ', ' ', ' ', ', '])): string => {
    const forms = [
      `${ordinal(f)} Floor`,
      `${ordinal(f)} floor`,
      `${ordinal(f)} Fl`,
      `Floor ${f}`,
      `Fl ${f}`,
      `Fl. ${f}`,
      `FL ${f}`,
      ...(f <= SPELLED_ORDINALS.length ? [`${title(SPELLED_ORDINALS[f - 1]!)} Floor`] : []),
    ];
    return `${sep}${pick(forms)}`;
  };
  const roomWords = (f: number, r: string) =>
    pick([
      ` ${ordinal(f)} Floor Room ${r}`,
      ` Floor ${f} Room ${r}`,
      ` Fl ${f} Rm ${r}`,
      ` ${ordinal(f)} Fl, Rm ${r}`,
      `, ${ordinal(f)} Floor, Room ${r}`,
      ` Room ${r}`,
      ` Rm ${r}`,
      ` Rm. ${r}`,
    ]);
  // The brief's own: "205 N. Michigan Avenue 41st Floor", "55 E Monroe- 40th Floor", "3520 West Broward Boulevard
  // Second Floor", "180 Water Street 14th Floor Room 1418".
  {
    claimNumber(C60601, 0, 0, 205);
    const michigan = new Building(
      C60601,
      '205',
      { pre: 'N', name: claimName(C60601, NAMES, 'Michigan'), type: 'AVE', post: '' },
      'CO',
    );
    michigan.add('');
    const fl41 = michigan.add('FL 41');
    michigan.add('FL 40');
    michigan.add('STE 4100');
    q(cls, apn(fl41), C60601, '205 N. Michigan Avenue 41st Floor');
    q(cls, apn(fl41), C60601, '205 N Michigan Ave Floor 41');
    q(cls, apn(fl41), C60601, '205 N. Michigan Ave., 41st Fl.');
    claimNumber(C60603, 0, 0, 55);
    const monroe = new Building(C60603, '55', { pre: 'E', name: 'Monroe', type: 'ST', post: '' }, 'CO');
    const fl40 = monroe.add('FL 40');
    monroe.add('FL 4');
    monroe.add('STE 400');
    q(cls, apn(fl40), C60603, '55 E Monroe- 40th Floor');
    q(cls, apn(fl40), C60603, '55 E Monroe St 40th Floor');
    const ftl = byZip('33312');
    claimNumber(ftl, 0, 0, 3520);
    const broward = new Building(
      ftl,
      '3520',
      { pre: 'W', name: claimName(ftl, NAMES, 'Broward'), type: 'BLVD', post: '' },
      'CO',
    );
    broward.add('');
    const fl2 = broward.add('FL 2');
    broward.add('FL 3');
    q(cls, apn(fl2), ftl, '3520 West Broward Boulevard Second Floor');
    q(cls, apn(fl2), ftl, '3520 W Broward Blvd 2nd Floor');
    const ny = byZip('10038');
    claimNumber(ny, 0, 0, 180);
    const water = new Building(ny, '180', { pre: '', name: claimName(ny, NAMES, 'Water'), type: 'ST', post: '' }, 'CO');
    const fl14 = water.add('FL 14');
    const rm1418 = water.add('RM 1418');
    water.add('RM 1402');
    water.add('FL 15');
    q(cls, apn(rm1418), ny, '180 Water Street 14th Floor Room 1418');
    q(cls, apn(rm1418), ny, '180 Water St Fl 14 Rm 1418');
    q(cls, apn(fl14), ny, '180 Water Street 14th Floor');
  }
  // Office buildings with whole floors as records (and suites, sometimes the building).
  for (let i = 0; i < 16; i++) {
    const p = pick(GRID);
    const n = claimNumber(p, 1, 2999);
    const s = newStreet(p, { pre: 0.4 });
    const b = new Building(p, String(n), s, 'CO');
    if (chance(0.5)) b.add('');
    const floors = sample(
      Array.from({ length: 59 }, (_, k) => k + 2),
      int(3, 5),
    );
    const a = floors.map((f) => b.add(`FL ${f}`));
    // Suites on those floors: "41st Floor" is not "STE 4100".
    for (const f of floors.slice(0, 2)) b.add(`STE ${f}${pick(['00', '10', '50'])}`);
    for (const k of sample([0, 1, 2], 2)) {
      const type: TypeStyle = pick(['abbr', 'abbr', 'dot', 'full', 'upper', 'none']);
      const dash = type === 'none' && chance(0.5);
      const street = `${n} ${writeStreet(s, { type })}`;
      q(
        cls,
        apn(a[k]!),
        p,
        casing(dash ? `${street}- ${floorWords(floors[k]!, '')}` : street + floorWords(floors[k]!)),
      );
    }
  }
  // Rooms: the room is the unit when a floor and a room are both written, even where the floor is a record too.
  for (let i = 0; i < 10; i++) {
    const p = pick(GRID);
    const n = claimNumber(p, 1, 2999);
    const s = newStreet(p, { pre: 0.3 });
    const b = new Building(p, String(n), s, 'CO');
    const f = int(2, 30);
    const floorRecord = chance(0.5) ? b.add(`FL ${f}`) : null;
    const rooms = sample(
      Array.from({ length: 30 }, (_, k) => `${f}${String(k + 1).padStart(2, '0')}`),
      3,
    );
    const a = rooms.map((r) => b.add(`RM ${r}`));
    for (const k of [0, 1]) {
      q(
        cls,
        apn(a[k]!),
        p,
        casing(`${n} ${writeStreet(s, { type: pick(['abbr', 'full', 'dot']) })}${roomWords(f, rooms[k]!)}`),
      );
    }
    if (floorRecord) q(cls, apn(floorRecord), p, `${n} ${writeStreet(s)}${floorWords(f)}`);
  }
  // The same number as a floor and as a suite: each is its own record.
  for (let i = 0; i < 4; i++) {
    const p = pick(GRID);
    const n = claimNumber(p, 1, 2999);
    const s = newStreet(p, { pre: 0.3 });
    const b = new Building(p, String(n), s, 'CO');
    const f = int(2, 40);
    const fl = b.add(`FL ${f}`);
    const ste = b.add(`STE ${f}`);
    b.add(`STE ${f + 1}`);
    q(cls, apn(fl), p, `${n} ${writeStreet(s, { type: 'abbr' })}${floorWords(f)}`);
    q(cls, apn(ste), p, `${n} ${writeStreet(s, { type: 'full' })} ${pick(['Suite', 'Ste', 'Ste.'])} ${f}`);
  }
}

// === 3. descriptor ==============================================================================================
{
  const cls = 'descriptor';
  const WORDS: Record<string, string> = { FRNT: 'Front', REAR: 'Rear', BSMT: 'Basement', UPPR: 'Upper', LOWR: 'Lower' };
  const say = (d: string) => {
    const r = rnd();
    const word = WORDS[d]!;
    return r < 0.45
      ? ` ${word}`
      : r < 0.6
        ? ` ${word.toLowerCase()}`
        : r < 0.7
          ? `, ${word}`
          : r < 0.85
            ? ` ${title(d)}`
            : ` ${d}`;
  };
  const patterns: [string, string[]][] = [
    ['two houses on a lot', ['FRNT', 'REAR']],
    ['two-flat', ['UPPR', 'LOWR']],
    ['three-flat with a garden unit', ['UPPR', 'LOWR', 'BSMT']],
    ['house and basement apartment', ['', 'BSMT']],
    ['house and coach house', ['', 'REAR']],
  ];
  for (let i = 0; i < 25; i++) {
    const p = pick(GRID);
    const n = claimNumber(p, 100, 9999);
    const s = newStreet(p, { pre: 0.4 });
    const [, units] = patterns[i % patterns.length]!;
    const b = new Building(p, String(n), s, 'R2');
    const a = units.map((u) => b.add(u));
    for (const [k, u] of units.entries()) {
      if (u !== '') q(cls, apn(a[k]!), p, casing(`${n} ${writeStreet(s)}${say(u)}`));
    }
  }
}

// === 4. designator-empty ========================================================================================
{
  const cls = 'designator-empty';
  const EMPTY = [
    'Unit',
    'Apt',
    'Apt.',
    '#',
    'Ste',
    'Suite',
    'Apartment',
    'Unit #',
    'Bldg',
    'Lot',
    'Spc',
    'Trlr',
    'Rm',
    'UNIT',
    'APT',
  ];
  // The brief's: "1615 Midland Ct NE Unit".
  claimNumber(CDR, 0, 0, 1615);
  const midland: Street = { pre: '', name: claimName(CDR, NAMES, 'Midland'), type: 'CT', post: 'NE' };
  const house = new Building(CDR, '1615', midland, 'R1').add('');
  for (const d of ['Unit', 'Apt', '#']) q(cls, apn(house), CDR, `1615 Midland Ct NE ${d}`);
  for (let i = 0; i < 20; i++) {
    const p = i % 4 === 3 ? pick(QUADRANT) : pick(GRID);
    const n = claimNumber(p, 100, 9999);
    const s = newStreet(p, { pre: 0.3, post: true });
    const h = new Building(p, String(n), s, 'R1').add('');
    // A distractor: the same number on the same name with another suffix (the query always gives its own).
    if (i % 4 === 1) new Building(p, String(n), { ...s, type: otherSuffix(s.type) }, 'R1').add('');
    for (const d of sample(EMPTY, 2)) {
      q(cls, apn(h), p, casing(`${n} ${writeStreet(s, { type: pick(['abbr', 'dot', 'full', 'upper']) })} ${d}`));
    }
  }
}

// === 5. house-suffix-apart ======================================================================================
{
  const cls = 'house-suffix-apart';
  // The brief's: "4922 B South Cornell Avenue" (4922B), "400 A South Boulevard" (400A, South is the name).
  claimNumber(C60615, 0, 0, 4922);
  const cornell: Street = { pre: 'S', name: claimName(C60615, NAMES, 'Cornell'), type: 'AVE', post: '' };
  const c4922 = new Building(C60615, '4922', cornell, 'R1').add('');
  const c4922b = new Building(C60615, '4922B', cornell, 'R1').add('');
  q(cls, apn(c4922b), C60615, '4922 B South Cornell Avenue');
  q(cls, apn(c4922b), C60615, '4922 B S. Cornell Ave');
  q(cls, apn(c4922), C60615, '4922 South Cornell Avenue');
  const clt = byZip('28203');
  claimNumber(clt, 0, 0, 400);
  const south: Street = { pre: '', name: claimName(clt, NAMES, 'South'), type: 'BLVD', post: '' };
  const s400a = new Building(clt, '400A', south, 'CO').add('');
  new Building(clt, '400B', south, 'CO').add('');
  q(cls, apn(s400a), clt, '400 A South Boulevard');
  q(cls, apn(s400a), clt, '400 A South Blvd');
  for (let i = 0; i < 16; i++) {
    const p = pick(GRID);
    const n = claimNumber(p, 10, 9999);
    const s = newStreet(p, { pre: 0.5 });
    const letter = pick(['A', 'B', 'C', 'D', 'F', 'R']);
    const a = new Building(p, `${n}${letter}`, s, 'R1').add('');
    // Distractors: the house without the letter, and a sibling letter, on the same street.
    if (i % 3 === 0) new Building(p, String(n), s, 'R1').add('');
    if (i % 3 === 1) new Building(p, `${n}${letter === 'A' ? 'B' : 'A'}`, s, 'R1').add('');
    q(cls, apn(a), p, casing(`${n} ${letter} ${writeStreet(s, { pre: 'full' })}`));
    q(cls, apn(a), p, `${n} ${chance(0.5) ? letter.toLowerCase() : letter} ${writeStreet(s)}`);
  }
  // Controls: the letter is the street's name ("12 B St").
  const LETTERS = ['B', 'C', 'D', 'F', 'G', 'H', 'J', 'K', 'L', 'P', 'Q', 'T', 'V', 'X'];
  const sac = byZip('95814');
  claimNumber(sac, 0, 0, 12);
  const bSt: Street = { pre: '', name: claimName(sac, NAMES, 'B'), type: 'ST', post: '' };
  const b12 = new Building(sac, '12', bSt, 'R1').add('');
  q(cls, apn(b12), sac, '12 B Street');
  q(cls, apn(b12), sac, '12 B St.');
  for (let i = 0; i < 9; i++) {
    const p = i % 3 === 2 ? DC : pick(SAC);
    const n = claimNumber(p, 100, 2999);
    const s: Street = { pre: '', name: claimName(p, LETTERS), type: 'ST', post: p === DC ? 'NW' : '' };
    const a = new Building(p, String(n), s, 'R1').add('');
    q(cls, apn(a), p, `${n} ${writeStreet(s, { type: 'full' })}`);
    q(cls, apn(a), p, casing(`${n} ${writeStreet(s, { type: pick(['abbr', 'dot']) })}`));
  }
}

// === 6. postdir-unit ============================================================================================
{
  const cls = 'postdir-unit';
  // The brief's: "2641 Gately Drive W 707", "9100 MLK Jr Street North 1001".
  claimNumber(WPB, 0, 0, 2641);
  const gately: Street = { pre: '', name: claimName(WPB, NAMES, 'Gately'), type: 'DR', post: 'W' };
  const g = new Building(WPB, '2641', gately, 'RA');
  const g707 = g.add('APT 707');
  g.add('APT 708');
  g.add('APT 107');
  q(cls, apn(g707), WPB, '2641 Gately Drive W 707');
  q(cls, apn(g707), WPB, '2641 Gately Dr W Apt 707');
  claimNumber(STP, 0, 0, 9100);
  const mlk: Street = { pre: '', name: claimName(STP, NAMES, 'MLK Jr'), type: 'ST', post: 'N' };
  const m = new Building(STP, '9100', mlk, 'RA');
  const m1001 = m.add('APT 1001');
  m.add('APT 1002');
  q(cls, apn(m1001), STP, '9100 MLK Jr Street North 1001');
  for (let i = 0; i < 20; i++) {
    const p = pick(QUADRANT);
    const n = claimNumber(p, 10, 9999);
    const s = newStreet(p, { pre: 0, post: true });
    const b = new Building(p, String(n), s, 'RA');
    const d = pick(['APT', 'APT', 'STE', 'UNIT']);
    const ids = unitIds(3);
    if (chance(0.3)) b.add('');
    const a = ids.map((id) => b.add(`${d} ${id}`));
    // A distractor: the other side of the street at the same number, with the same units.
    if (i % 3 === 0) {
      const t = new Building(p, String(n), { ...s, post: OPPOSITE[s.post]! }, 'RA');
      for (const id of ids) t.add(`${d} ${id}`);
    }
    for (const k of [0, 1]) {
      const id = ids[k]!;
      const unit = pick([id, id, `${title(d)} ${id}`, `#${id}`, `# ${id}`]);
      q(cls, apn(a[k]!), p, casing(`${n} ${writeStreet(s, { type: pick(['abbr', 'full', 'dot']) })} ${unit}`));
    }
  }
}

// === 7. unit-first ==============================================================================================
{
  const cls = 'unit-first';
  const FIRST = (d: string, id: string) =>
    pick([
      `${title(d)} ${id}`,
      ...(d === 'UNIT' ? [] : [`${title(d)}. ${id}`]),
      `#${id}`,
      `# ${id}`,
      `${title(DESIGNATOR_WORD.get(d) ?? d)} ${id}`,
    ]);
  // The brief's: "Apt 4 10A Dr. Martin Luther King Blvd".
  const nwk = byZip('07102');
  claimNumber(nwk, 0, 0, 10);
  const king: Street = { pre: '', name: claimName(nwk, NAMES, 'Dr Martin Luther King'), type: 'BLVD', post: '' };
  const k10a = new Building(nwk, '10A', king, 'RA');
  k10a.add('');
  const apt4 = k10a.add('APT 4');
  k10a.add('APT 3');
  k10a.add('APT 14');
  q(cls, apn(apt4), nwk, 'Apt 4 10A Dr. Martin Luther King Blvd');
  q(cls, apn(apt4), nwk, 'Apt 4, 10A Dr. Martin Luther King Blvd');
  q(cls, apn(apt4), nwk, '#4 10A Dr Martin Luther King Boulevard');
  for (let i = 0; i < 20; i++) {
    const p = pick([...GRID, ...QUADRANT]);
    const n = claimNumber(p, 10, 9999);
    const house = chance(0.2) ? `${n}${pick(['A', 'B'])}` : String(n);
    const s = newStreet(p, { pre: 0.4, post: true });
    const b = new Building(p, house, s, 'RA');
    if (chance(0.5)) b.add('');
    const d = pick(['APT', 'APT', 'UNIT', 'STE']);
    const ids = unitIds(3);
    const a = ids.map((id) => b.add(`${d} ${id}`));
    for (const k of [0, 1]) {
      const comma = chance(0.5) ? ',' : '';
      q(cls, apn(a[k]!), p, casing(`${FIRST(d, ids[k]!)}${comma} ${house} ${writeStreet(s)}`));
    }
  }
}

// === 8. building-descriptor =====================================================================================
{
  const cls = 'building-descriptor';
  const LOBBY = [' Lobby', ' lobby', ' LOBBY', ' LBBY', ' Lbby', ', Lobby'];
  // The brief's: "233 S Wacker Dr lobby".
  claimNumber(C60606, 0, 0, 233);
  const wacker: Street = { pre: 'S', name: claimName(C60606, NAMES, 'Wacker'), type: 'DR', post: '' };
  const w = new Building(C60606, '233', wacker, 'CO');
  const tower = w.add('');
  for (const ste of ['STE 3300', 'STE 4400', 'STE 800', 'FL 103']) w.add(ste);
  for (const l of ['lobby', 'Lobby', 'LBBY']) q(cls, apn(tower), C60606, `233 S Wacker Dr ${l}`);
  for (let i = 0; i < 24; i++) {
    const p = pick(GRID);
    const n = claimNumber(p, 1, 2999);
    const s = newStreet(p, { pre: 0.4 });
    const b = new Building(p, String(n), s, i % 2 === 0 ? 'CO' : 'RA');
    const withBuilding = i % 2 === 0;
    const building = withBuilding ? b.add('') : null;
    const d = withBuilding ? 'STE' : 'APT';
    for (const id of unitIds(int(2, 4))) b.add(`${d} ${id}`);
    const times = withBuilding ? 2 : 1;
    for (let k = 0; k < times; k++) {
      q(cls, building ? apn(building) : 'none', p, casing(`${n} ${writeStreet(s)}${pick(LOBBY)}`));
    }
  }
}

// === 9. unit-missing ============================================================================================
{
  const cls = 'unit-missing';
  for (let i = 0; i < 36; i++) {
    const kind = i % 3; // 0: building record and units, 1: units only, 2: a house
    const p = pick([...GRID, ...QUADRANT]);
    const n = claimNumber(p, 10, 9999);
    const s = newStreet(p, { pre: 0.4, post: true });
    const b = new Building(p, String(n), s, kind === 2 ? 'R1' : 'RA');
    const building = kind === 1 ? null : b.add('');
    const d = pick(['APT', 'APT', 'STE', 'UNIT']);
    const ids = kind === 2 ? [] : unitIds(3);
    for (const id of ids) b.add(`${d} ${id}`);
    let missing = '';
    do missing = unitIds(1)[0]!;
    while (ids.includes(missing));
    const asked = pick([
      `${title(d)} ${missing}`,
      `#${missing}`,
      `Apt ${missing}`,
      `Unit ${missing}`,
      `Floor ${int(2, 9)}`,
      ...(kind === 2 ? ['Rear', 'Upper', 'Bsmt'] : []),
    ]);
    q(cls, building ? apn(building) : 'none', p, casing(`${n} ${writeStreet(s)} ${asked}`));
    if (i % 2 === 0) q(cls, building ? apn(building) : 'none', p, `${n} ${writeStreet(s)}, ${title(d)} ${missing}`);
  }
}

// === 10. postdir-one-side =======================================================================================
{
  const cls = 'postdir-one-side';
  // The brief's: Brooklyn's Plaza Street, East and West.
  const bk = byZip('11238');
  const plaza = claimName(bk, NAMES, 'Plaza');
  const at = (n: number, post: string, unit = '') => {
    claimNumber(bk, 0, 0, n);
    return new Building(bk, String(n), { pre: '', name: plaza, type: 'ST', post }, 'RC').add(unit);
  };
  const e20 = at(20, 'E');
  q(cls, apn(e20), bk, '20 Plaza Street');
  q(cls, apn(e20), bk, '20 Plaza St');
  const p39 = at(39, '');
  q(cls, apn(p39), bk, '39 Plaza Street West');
  q(cls, apn(p39), bk, '39 Plaza St W');
  claimNumber(bk, 0, 0, 50);
  const e50 = new Building(bk, '50', { pre: '', name: plaza, type: 'ST', post: 'E' }, 'RC').add('');
  const w50 = new Building(bk, '50', { pre: '', name: plaza, type: 'ST', post: 'W' }, 'RC').add('');
  q(cls, 'none', bk, '50 Plaza Street');
  q(cls, apn(e50), bk, '50 Plaza Street East');
  q(cls, apn(w50), bk, '50 Plaza St W');
  const kinds = ['stored', 'asked', 'both', 'other'] as const;
  for (let i = 0; i < 36; i++) {
    const kind = kinds[i % kinds.length]!;
    const p = pick(QUADRANT);
    const n = claimNumber(p, 10, 9999);
    const s = newStreet(p, { pre: 0, post: true });
    const bare = { ...s, post: '' };
    const withUnit = i % 5 === 0 && kind !== 'both';
    const unit = withUnit ? `APT ${unitIds(1)[0]}` : '';
    const askUnit = withUnit ? ` ${pick(['Apt ', '#', 'Unit '])}${unit.slice(4)}` : '';
    // Elsewhere on the street (another number), the other side: the name carries both directionals in the place.
    if (i % 2 === 1) {
      const m = claimNumber(p, 10, 9999);
      new Building(p, String(m), { ...s, post: OPPOSITE[s.post]! }, 'R1').add('');
    }
    if (kind === 'stored') {
      // Stored with the directional, asked without.
      const a = new Building(p, String(n), s, 'R1').add(unit);
      q(cls, apn(a), p, casing(`${n} ${writeStreet(bare)}${askUnit}`));
    } else if (kind === 'asked') {
      // Stored without, asked with.
      const a = new Building(p, String(n), bare, 'R1').add(unit);
      q(cls, apn(a), p, casing(`${n} ${writeStreet(s)}${askUnit}`));
    } else if (kind === 'both') {
      // Both sides at the number: without the directional the address is ambiguous; with it, each is found.
      const a = new Building(p, String(n), s, 'R1').add('');
      const b = new Building(p, String(n), { ...s, post: OPPOSITE[s.post]! }, 'R1').add('');
      q(cls, 'none', p, `${n} ${writeStreet(bare)}`);
      q(cls, apn(a), p, casing(`${n} ${writeStreet(s)}`));
      q(cls, apn(b), p, `${n} ${writeStreet({ ...s, post: OPPOSITE[s.post]! })}`);
    } else {
      // Stored on one side, asked on the other: another street.
      new Building(p, String(n), s, 'R1').add(unit);
      q(cls, 'none', p, casing(`${n} ${writeStreet({ ...s, post: OPPOSITE[s.post]! })}${askUnit}`));
    }
  }
}

// === 11. one-building-two-spellings =============================================================================
{
  const cls = 'one-building-two-spellings';
  const unitQuery = (id: string) => pick([` Apt ${id}`, ` #${id}`, `, ${id}`, ` Unit ${id}`, ` APT ${id}`]);
  /** A building whose lots the county wrote two ways; queries without a unit answer every lot. */
  const building = (p: Place, b: Building, spellings: [string, string], asked: string[], lots: number) => {
    const every: string[] = [];
    const units: [string, string][] = [];
    if (chance(0.3)) every.push(b.add('', spellings[0]));
    for (const [k, id] of unitIds(lots).entries()) {
      const a = b.add(`APT ${id}`, spellings[k % 2]!);
      every.push(a);
      units.push([a, id]);
    }
    for (const line of asked) q(cls, all(every), p, line);
    for (const [a, id] of sample(units, 2)) q(cls, apn(a), p, casing(`${pick(asked)}${unitQuery(id)}`));
  };
  // The brief's: "543 W 122ND ST" for some condominium lots, "543 W 122ND" for others.
  const harlem = byZip('10027');
  claimNumber(harlem, 0, 0, 543);
  const w122: Street = { pre: 'W', name: claimName(harlem, NAMES, '122nd'), type: 'ST', post: '' };
  building(
    harlem,
    new Building(harlem, '543', w122, 'RC'),
    ['543 W 122ND ST', '543 W 122ND'],
    ['543 W 122nd St', '543 West 122nd Street', '543 W 122nd'],
    6,
  );
  const ways = ['type-missing', 'type-spelled', 'pre-spelled', 'ordinal-bare'] as const;
  for (let i = 0; i < 16; i++) {
    const way = ways[i % 4 === 3 ? int(0, 3) : i % 3]!;
    const p = pick(GRID);
    const n = claimNumber(p, 10, 4999);
    const s =
      way === 'ordinal-bare'
        ? { ...newStreet(p, { pre: 0.7, names: ORDINAL_NAMES }), type: pick(['ST', 'AVE', 'PL']) }
        : way === 'pre-spelled'
          ? { ...newStreet(p), pre: pick(['N', 'S', 'E', 'W']) }
          : way === 'type-spelled'
            ? { ...newStreet(p, { pre: 0.4 }), type: pick(COMMON_SUFFIXES.filter((t) => SUFFIX_WORD.get(t) !== t)) }
            : newStreet(p, { pre: 0.4 });
    const std = storedLine(String(n), s);
    const other =
      way === 'type-missing'
        ? storedLine(String(n), { ...s, type: '' })
        : way === 'type-spelled'
          ? storedLine(String(n), { ...s, type: SUFFIX_WORD.get(s.type)! })
          : way === 'pre-spelled'
            ? storedLine(String(n), { ...s, pre: DIRECTIONS[s.pre]! })
            : storedLine(String(n), { ...s, name: s.name.replace(/\D+$/, '') });
    const asked = [`${n} ${writeStreet(s, { type: 'abbr' })}`, `${n} ${writeStreet(s, { type: 'full', pre: 'full' })}`];
    if (way === 'type-missing') asked.push(`${n} ${writeStreet(s, { type: 'none' })}`);
    building(p, new Building(p, String(n), s, 'RC'), [std, other], asked, int(3, 6));
  }
}

// --- Output ---------------------------------------------------------------------------------------------------
const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const write = (file: string, header: string[], body: string[][]) =>
  writeFileSync(
    new URL(file, import.meta.url),
    `${[header.join(','), ...body.map((r) => r.map(csvCell).join(','))].join('\n')}\n`,
  );
const USE = { R1: 'SINGLE FAMILY', R2: 'TWO-FOUR FAMILY', RA: 'APARTMENT', RC: 'CONDOMINIUM', CO: 'OFFICE' } as const;
write(
  'pub28-store.csv',
  ['APN', 'SITUS_ADDRESS', 'SITUS_UNIT', 'SITUS_CITY', 'SITUS_STATE', 'SITUS_ZIP', 'COUNTY', 'LAND_USE', 'YEAR_BUILT'],
  store.map((r, i) => [
    r.apn,
    r.line1,
    r.unit,
    r.place.city.toUpperCase(),
    r.place.state,
    r.place.zip,
    r.place.county,
    USE[r.use as keyof typeof USE],
    String(1890 + ((i * 37) % 130)),
  ]),
);
write(
  'pub28-variants.csv',
  ['class', 'expect', 'zip', 'city', 'state', 'address'],
  out.map((v) => [v.cls, v.expect, v.zip, v.city, v.state, v.address]),
);
const counts = new Map<string, { n: number; apn: number; all: number; none: number; byCity: number }>();
for (const v of out) {
  const c = counts.get(v.cls) ?? { n: 0, apn: 0, all: 0, none: 0, byCity: 0 };
  counts.set(v.cls, c);
  c.n++;
  c[v.expect === 'none' ? 'none' : (v.expect.slice(0, 3) as 'apn' | 'all')]++;
  if (v.zip === '') c.byCity++;
}
console.log(`${store.length} stored records, ${out.length} labelled queries`);
for (const [cls, c] of counts) {
  console.log(
    `  ${cls.padEnd(28)} ${String(c.n).padStart(4)}  (apn ${c.apn}, all ${c.all}, none ${c.none}; ${c.byCity} by city)`,
  );
}
