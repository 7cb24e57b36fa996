// One row of a county file as the store takes it: the mapping's rules applied to its cells, then the property (or
// tract vintage) they describe, with geography the file lacks taken from the ZIP data set. Pure, so that it runs in
// the import's worker threads as well as in the main one.
import {
  apnKey,
  normalizeCity,
  separatedApnKey,
  splitZip,
  STATE_FIPS,
  type StreetLine,
  UNIT_DESIGNATORS,
  unglued,
} from '@pra/core/address';
import { UNKNOWN_PROPERTY_TYPE } from '@pra/core/vocabulary';
import {
  acresOf,
  NO_OWNERS,
  type OwnerField,
  ownersInOrder,
  type PropertyInput,
  type SaleInput,
  sqftOf,
  type TractInput,
} from '../domain/property-input.js';
import { hash32 } from '../generator/random.js';
import { zipPlace } from '@pra/core/zip-places';
import { splitCityStateZip } from '../domain/city-state-zip.js';
import { ALL_KEPT, parseOwnerCells, recordOwnersOf } from '../domain/owner-names.js';
import { parsedStreetLine } from '../domain/street-lines.js';
import type { ZipEvidence } from '../domain/zip-evidence.js';
import type { Value, Values } from './apply-rules.js';
import { vacantAsTyped } from './import-merge.js';
import { deedKey, saleOrder } from './sale-merge.js';

export type { Value, Values } from './apply-rules.js';

const str = (v: Value) => (v === null || v === undefined ? null : String(v));
const num = (v: Value) => (v === null || v === undefined ? null : Number(v));

const placeOf = zipPlace;

/** A unit as shown in line2: "APT 4" stays, a bare id gets the "#" designator ("2C" -> "# 2C"). */
function unitLine(unit: string): string {
  const u = unit.trim().toUpperCase().replace(/\s+/g, ' ');
  const first = u.split(/[\s\d]/)[0] ?? '';
  return u.startsWith('#') || UNIT_DESIGNATORS.has(first) ? u : `# ${u}`;
}

/** Street lines parsed lately (street-lines.ts): a building's units repeat its address, and the search below parses its starts. */
const parseLine = parsedStreetLine;

/**
 * Moves a unit written into the address line ("345 WEST 21ST STREET, 2C", "12 MAIN ST APT 4") into line2, so that
 * imported records have the shape of every other record; a unit column fills it when the line has none. `street` is
 * the parsed street line of the result (line1 with line2).
 */
function splitLine(line: string, unitColumn: string | null): { line1: string; line2: string; street: StreetLine } {
  const whole = line.trim().replace(/\s+/g, ' ');
  const parsed = parseLine(whole);
  let line1 = whole;
  let written = '';
  if (parsed.unitKey !== '') {
    // The shortest start of the line that is the same street line without a unit.
    for (let i = 0; i < whole.length; i++) {
      if (whole[i] !== ' ' && whole[i] !== ',') continue;
      const head = whole.slice(0, i).replace(/,\s*$/, '').trim();
      const p = parseLine(head);
      // A "unit" that reads as a street of its own ("50-56 N FRONT ST": FRONT is a descriptor to the normaliser) is
      // the street's name: the line stays whole.
      const rest = whole.slice(i).replace(/^[\s,]+/, '');
      if (p.lineKey === parsed.lineKey && p.unitKey === '' && parseLine(`1 ${rest}`).streetType === '') {
        line1 = head;
        written = whole.slice(i).replace(/^[\s,]+/, '');
        break;
      }
    }
  }
  // Both given and different ("9 ARGYLE ROAD, 4C" with 16 in the unit column): the line is what clients write.
  const unit = written || unitColumn?.trim() || '';
  const line2 = unit === '' ? '' : unitLine(unit);
  // Without a unit the line is parsed already.
  return { line1, line2, street: line2 === '' && line1 === whole ? parsed : parseLine(`${line1} ${line2}`.trim()) };
}

/**
 * Moves a unit written into the address line ("345 WEST 21ST STREET, 2C", "12 MAIN ST APT 4") into line2, so that
 * imported records have the shape of every other record; a unit column fills it when the line has none.
 */
export function splitAddressLine(line: string, unitColumn: string | null): { line1: string; line2: string } {
  // Read as the site's line is (sitePlace): a joined file's line is keyed as the parcels' stored line was.
  const { line1, line2 } = splitLine(unglued(line), unitColumn);
  return { line1, line2 };
}

const INT4 = 2_147_483_647;
const INTEGER_TARGETS = [
  'salePrice',
  'sale2Price',
  'sale3Price',
  'sale4Price',
  'assessedLand',
  'assessedImprovements',
  'assessedTotal',
  'marketTotal',
  'taxYear',
  'yearBuilt',
  'beds',
  'buildingSqft',
];
/** numeric(14, 2) */
const MAX_AMOUNT = 1e12;

/** Values the store cannot hold are the row's error, not the batch's. */
function checkRanges(v: Values): void {
  for (const t of INTEGER_TARGETS) {
    const n = num(v[t]);
    if (n !== null && Math.abs(n) > INT4) throw new Error(`${t} ${n} is out of range`);
  }
  const amount = num(v.mortgageAmount);
  if (amount !== null && Math.abs(amount) >= MAX_AMOUNT) throw new Error(`mortgageAmount ${amount} is out of range`);
  const lat = num(v.latitude);
  const lon = num(v.longitude);
  if (lat !== null && Math.abs(lat) > 90) throw new Error(`latitude ${lat} is out of range`);
  if (lon !== null && Math.abs(lon) > 180) throw new Error(`longitude ${lon} is out of range`);
}

/**
 * The owner's mailing address as the file writes it, when it gives a line; its ZIP is kept as written (a foreign
 * postcode is not a row error), a ZIP+4 as the ZIP and its +4. City, state and ZIP may come in one cell
 * (`mailingCityStateZip`: "PHILADELPHIA PA", "SPRINGFIELD IL 62704-1234"); a column of their own wins over it.
 * Without a ZIP the record shows it and leaves absentee ownership unknown.
 */
function mailingOf(v: Values): PropertyInput['mailing'] {
  const line1 = unglued(str(v.mailingLine1)?.replace(/\s+/g, ' '));
  if (!line1) return null;
  const cell = str(v.mailingCityStateZip);
  const csz = cell ? splitCityStateZip(cell) : null;
  // A cell that does not read as city, state and ZIP ('SEWELL N') is kept as the city: the address is the owner's.
  const written = str(v.mailingZip);
  const plus4 = written && /^\d{5}-?\d{4}$/.test(written) ? splitZip(written) : null;
  const zip = plus4?.zip5 ?? written ?? csz?.zip5 ?? '';
  const zip4 = plus4 ? plus4.zip4 : written ? '' : (csz?.zip4 ?? '');
  return {
    line1,
    city: str(v.mailingCity) ?? csz?.city ?? (csz === null && cell ? cell : ''),
    state: str(v.mailingState) ?? csz?.state ?? '',
    zip,
    ...(zip4 ? { zip4 } : {}),
  };
}

/** What a row's property needs besides its values: how its owner cells write names, the county's ZIP evidence. */
export interface ParcelOptions {
  ownerOrder?: 'last-first' | 'first-last';
  /** How the seller's cell (saleSeller) writes a person's name. */
  sellerOrder?: 'last-first' | 'first-last';
  /** The APN's parts tell parcels apart (see PropertyInput.parcelKey). */
  apnSeparators?: boolean;
  zipEvidence?: ZipEvidence | null;
}

/**
 * The 11-digit census tract id: as written when it is one; a tract number ("33", "172", "33.01", "003301") behind
 * the county's FIPS code when the county is known; otherwise as written.
 */
export function tractIdOf(tract: string | null, fips: string, countyKnown: boolean): string | null {
  if (tract === null) return null;
  const t = tract.trim();
  if (/^\d{11}$/.test(t) || !countyKnown) return t;
  if (/^\d{6}$/.test(t)) return fips + t;
  const m = /^(\d{1,4})(?:\.(\d{1,2}))?$/.exec(t);
  return m ? `${fips}${m[1]!.padStart(4, '0')}${(m[2] ?? '').padEnd(2, '0')}` : t;
}

/** The mailing line is the site's own line (street and unit, as the lookup keys normalise them). */
function mailedAtSite(mailing: NonNullable<PropertyInput['mailing']>, site: StreetLine): boolean {
  const m = parseLine(mailing.line1);
  return m.houseNumber !== null && m.lineKey === site.lineKey && m.unitKey === site.unitKey;
}

/**
 * The mailing city is the site's town (a street line of one town may be another town's too: Hanover's and
 * Lebanon's): the same name, or the name with a part before it (WEST LEBANON's mail is LEBANON's city), which the
 * caller checks against the county by the ZIP's place. Without a site city, the county check alone.
 */
function sameTown(mailingCity: string, siteCity: string | null): boolean {
  if (!siteCity) return true;
  const town = normalizeCity(siteCity);
  const mailed = normalizeCity(mailingCity);
  return mailed === town || mailed.endsWith(` ${town}`);
}

/** Sales written in columns of one row: the date, price and book/page targets of each. */
const SALE_COLUMNS = [
  ['saleDate', 'salePrice', 'saleBookPage'],
  ['sale2Date', 'sale2Price', 'sale2BookPage'],
  ['sale3Date', 'sale3Price', 'sale3BookPage'],
  ['sale4Date', 'sale4Price', 'sale4BookPage'],
] as const;

/**
 * A deed's book and page as the file writes it; null for none: a cell without a digit (`-`, `N/A`, `NONE`: a book and
 * page, or an instrument number, has one), or one whose numbers are all zero, the rolls' placeholder (`0:0`, `0/0`,
 * `0000/0000`, `0.00/0.00`).
 */
function deedRef(cell: string | null): string | null {
  if (cell === null) return null;
  const key = deedKey(cell);
  return !/[1-9]/.test(key) ? null : cell;
}

/** Builds a property from mapped values; geography the file lacks comes from the ZIP data set. */
export function toProperty(v: Values, now: string, opts: ParcelOptions = {}): PropertyInput {
  return toParcel(v, now, opts).input;
}

/** The site's city, state and ZIP: columns of their own, or one cell (`cityStateZip`). */
function siteOf(v: Values): { city: string | null; state: string | null; zip: string; zip4: string } {
  const cell = str(v.cityStateZip);
  const csz = cell ? splitCityStateZip(cell) : null;
  if (cell && !csz) throw new Error(`cityStateZip '${cell}' is not a city, state and ZIP`);
  return {
    city: str(v.city) ?? csz?.city ?? null,
    state: str(v.state) ?? csz?.state ?? null,
    zip: str(v.zip) ?? csz?.zip5 ?? '',
    zip4: str(v.zip4) ?? csz?.zip4 ?? '',
  };
}

/**
 * Where a row's parcel is, as far as the row alone tells: its site, street line and mailing address, and its ZIP when
 * the file gives it or the owner is mailed at the parcel in a ZIP of the county; throws what the row's site makes it
 * an error for. The county's street-segment evidence, read from the whole file, is applied after (rowPlace): a small
 * roll without site ZIPs reads this once, for its evidence, and keeps it for the import (import-work.ts).
 */
export function sitePlace(v: Values): SitePlace {
  checkRanges(v);
  const site = siteOf(v);
  const fipsGiven = str(v.fips);
  if (fipsGiven !== null && !/^\d{5}$/.test(fipsGiven))
    throw new Error(`fips '${fipsGiven}' is not a 5-digit county code`);
  if (str(v.line1) === null) throw new Error('line1 is empty');
  // "N/A FULTON STREET": a parcel without a house number (vacant land, a lot behind others).
  const written = unglued(str(v.line1)!.replace(/^(N\/A|N\.A\.|UNKNOWN|NONE)\s+/i, ''));
  const given = str(v.line2);
  const {
    line1,
    line2,
    street: parsed,
  } = given
    ? { line1: written, line2: given, street: parseLine(`${written} ${given}`) }
    : splitLine(written, str(v.unit));
  // Without an APN the address is the parcel, so it needs its number; with one, the parcel is found by its APN.
  if (parsed.houseNumber === null && str(v.apn) === null) throw new Error(`line1 '${line1}' has no house number`);
  const mailing = mailingOf(v);
  // The ZIP: the file's; else the owner's mailing ZIP when the owner is mailed at this very line in a ZIP of the
  // county; else (rowPlace) the ZIP the street segment's other parcels share (zip-evidence.ts); else none.
  let zip = site.zip;
  let zipSource: 'file' | NonNullable<PropertyInput['zipSource']> | null = zip === '' ? null : 'file';
  const stateWritten = site.state;
  if (zip === '' && mailing && stateWritten && mailing.state === stateWritten && mailedAtSite(mailing, parsed)) {
    const z = splitZip(mailing.zip).zip5;
    const p = z.length === 5 ? placeOf(z) : undefined;
    // In the site's town (the mailing city), and a ZIP of the county or of the town (22901 is Albemarle's in the ZIP
    // data, and Charlottesville's too): a mistyped ZIP (Seabrook's 03874 for a Lebanon owner) is no evidence.
    const ofPlace =
      p !== undefined && (p.fips === fipsGiven || normalizeCity(p.city) === normalizeCity(site.city ?? ''));
    const inPlace =
      site.city !== null ? sameTown(mailing.city, site.city) && ofPlace : fipsGiven === null || p?.fips === fipsGiven;
    if (p && p.state === stateWritten && inPlace) {
      zip = z;
      zipSource = 'owner-mailing';
    }
  }
  return { site, fipsGiven, line1, line2, parsed, mailing, zip, zipSource };
}

/** What sitePlace reads of a row. */
export interface SitePlace {
  site: ReturnType<typeof siteOf>;
  fipsGiven: string | null;
  line1: string;
  line2: string;
  parsed: StreetLine;
  mailing: PropertyInput['mailing'];
  zip: string;
  zipSource: 'file' | NonNullable<PropertyInput['zipSource']> | null;
}

/**
 * Where a row's parcel is, besides its site (sitePlace): its ZIP, filled from the street segment's evidence where the
 * row gave none, its state and county; throws what the row's place makes it an error for.
 */
function rowPlace(from: SitePlace, opts: ParcelOptions) {
  const { site, fipsGiven, parsed } = from;
  let { zip, zipSource } = from;
  if (zip === '' && opts.zipEvidence && parsed.houseNumber !== null) {
    const n = Number.parseInt(parsed.houseNumber, 10);
    const z = Number.isFinite(n) ? opts.zipEvidence.zipOf(parsed.streetKey, n) : null;
    if (z) {
      zip = z;
      zipSource = 'street-segment';
    }
  }
  const place = zip === '' ? undefined : placeOf(zip);
  const state = site.state ?? place?.state;
  if (!state || !STATE_FIPS[state])
    throw new Error(zip === '' ? 'no state and no ZIP: the parcel has no place' : `unknown state for ZIP ${zip}`);
  if (place && place.state !== state) throw new Error(`ZIP ${zip} is in ${place.state}, not ${state}`);
  const fips = fipsGiven ?? place?.fips ?? `${STATE_FIPS[state]}000`;
  return { zip, zipSource, place, state, fips };
}

/**
 * A row's ZIP evidence (zip-evidence.ts), from its site (sitePlace): its street line and ZIP when its owner is mailed
 * at the parcel in a ZIP of the county, else null; throws what toParcel would throw for the row's place. The rest of
 * a parcel (owners, sales, values) is not made: the evidence prescan reads every row of the file before the import
 * reads it.
 */
export function zipEvidenceOf(from: SitePlace): { street: StreetLine; zip: string } | null {
  const { zip, zipSource } = rowPlace(from, {});
  return zipSource === 'owner-mailing' ? { street: from.parsed, zip } : null;
}

/** A property from mapped values, with its street line parsed (once: the identity and checks use it). */
export function toParcel(
  v: Values,
  now: string,
  opts: ParcelOptions = {},
  /** sitePlace(v), when the row's site was read already (ImportWork reads it with the row's values). */
  at?: SitePlace,
): { input: PropertyInput; street: StreetLine; ownersNotKept: readonly string[] } {
  const read = at ?? sitePlace(v);
  const { site, fipsGiven, line1, line2, parsed, mailing } = read;
  const { zip, zipSource, place, state, fips } = rowPlace(read, opts);
  const derivedApn = String(hash32(`${fips}|${parsed.lineKey}|${parsed.unitKey}`)).padStart(10, '0');
  const apn = str(v.apn) ?? `${derivedApn.slice(0, 3)}-${derivedApn.slice(3, 7)}-${derivedApn.slice(7)}`;
  const { owners, notKept } = ownersOf(v, opts);
  const proptype = str(v.proptype) ?? UNKNOWN_PROPERTY_TYPE;
  // The ZIP's centre stands for coordinates only when the file gave the ZIP: an inferred ZIP is not a location.
  const centre = zipSource === 'file' ? place : undefined;
  const input: PropertyInput = {
    apn,
    apnOrig: str(v.apn) ?? apnKey(apn),
    ...(opts.apnSeparators && str(v.apn) !== null ? { parcelKey: separatedApnKey(apn) } : {}),
    ...(str(v.apn) === null ? { apnDerived: true as const } : {}),
    taxParcelId: str(v.taxParcelId),
    fips,
    state,
    county: str(v.county) ?? place?.county ?? 'UNKNOWN',
    line1,
    line2,
    city: site.city ?? place?.city ?? 'UNKNOWN',
    zip,
    zip4: zipSource === 'file' ? site.zip4 : '',
    ...(zipSource !== 'file' ? { zipSource } : {}),
    latitude: num(v.latitude) ?? centre?.latitude ?? null,
    longitude: num(v.longitude) ?? centre?.longitude ?? null,
    censusTract: tractIdOf(str(v.censusTract), fips, fipsGiven !== null || place !== undefined),
    proptype,
    yearBuilt: num(v.yearBuilt),
    ...lotOf(v),
    subdivision: null,
    pool: null,
    vacant: vacantAsTyped({ proptype }),
    buildingSqft: num(v.buildingSqft),
    beds: num(v.beds),
    ...bathsOf(v),
    ...owners,
    mailing,
    assessment: assessmentOf(v),
    assessmentHistory: [],
    sales: salesOf(v, owners, opts),
    mortgages:
      v.mortgageAmount == null && v.mortgageDate == null && v.mortgageLender == null
        ? []
        : [{ amount: num(v.mortgageAmount), date: str(v.mortgageDate), lender: str(v.mortgageLender) }],
    lastModified: now,
  };
  return { input, street: parsed, ownersNotKept: notKept };
}

/**
 * The lot's area in square feet and in acres, each the file's when it gives it, else made from the other (square
 * feet whole, acres to four places). An area of 0 or less is unknown, however the file writes it (`0.00`, `-1`), and
 * so is one that rounds to no square foot. No store column holds either (the record's document does), so no range
 * but a whole number of square feet JSON keeps exactly: the largest parcels, national forests, are millions of acres.
 */
function lotOf(v: Values): Pick<PropertyInput, 'lotSqft' | 'lotAcres'> {
  const sqft = positive(num(v.lotSqft));
  const acres = positive(num(v.lotAcres));
  // The record's lotsize1 is an integer: a file's 5000.5 square feet are 5,001.
  const lotSqft = positive(sqft === null ? sqftOf(acres) : Math.round(sqft));
  if (lotSqft !== null && !Number.isSafeInteger(lotSqft))
    throw new Error(`${sqft === null ? `lotAcres ${acres}` : `lotSqft ${sqft}`} is out of range`);
  return { lotSqft, lotAcres: acres ?? acresOf(sqft) };
}

const positive = (n: number | null) => (n !== null && n > 0 ? n : null);

/**
 * Bathrooms: the file's total (bathsTotal), or one made of its full and half bathrooms (bathsFull, bathsPartial: a
 * half bath counts 0.5, as in a total of 2.5; none without the full ones); a mapping maps one or the other. The half
 * ones as a count, only beside a total (the merge takes the two together: import-merge.ts BATHS).
 */
function bathsOf(v: Values): Pick<PropertyInput, 'bathsTotal' | 'bathsPartial'> {
  // A count (the record's bathspartial is an integer), whatever the mapping's format.
  const half = num(v.bathsPartial);
  const partial = half === null ? null : Math.round(half);
  const full = num(v.bathsFull);
  const total = num(v.bathsTotal) ?? (full === null ? null : full + 0.5 * (partial ?? 0));
  // Both or neither: half baths without a total are a count of nothing known (Lebanon's 0.0 full baths, unknown).
  return { bathsTotal: total, bathsPartial: total === null ? null : partial };
}

/** The current assessment; the total is the file's, or the sum of land and improvements when it gives both. */
function assessmentOf(v: Values): PropertyInput['assessment'] {
  const land = num(v.assessedLand);
  const improvements = num(v.assessedImprovements);
  const total = num(v.assessedTotal) ?? (land !== null && improvements !== null ? land + improvements : null);
  const market = num(v.marketTotal);
  if (total === null && market === null && land === null && improvements === null) return null;
  return {
    // The file's (a column, or the mapping's constant), or none: the year of the import is not the values' tax year.
    taxYear: num(v.taxYear),
    land,
    improvements,
    total,
    marketTotal: market,
    taxAmount: null,
    avmValue: null,
    avmDate: null,
    rentalEstimate: null,
    rentalSource: null,
  };
}

/**
 * What a joined file's row says of a parcel another file made (a county's roll in several files): a property whose
 * fields are those the row's mapping reads; the join (import-join.ts) takes only the mapped ones from it.
 */
export function toContribution(
  v: Values,
  now: string,
  opts: ParcelOptions = {},
): { input: PropertyInput; ownersNotKept: readonly string[] } {
  checkRanges(v);
  const fips = str(v.fips) ?? '';
  const { owners, notKept } = ownersOf(v, opts);
  const proptype = str(v.proptype) ?? UNKNOWN_PROPERTY_TYPE;
  const apn = str(v.apn);
  const input: PropertyInput = {
    apn: apn ?? '',
    apnOrig: apn ?? '',
    ...(opts.apnSeparators && apn !== null ? { parcelKey: separatedApnKey(apn) } : {}),
    taxParcelId: str(v.taxParcelId),
    fips,
    state: str(v.state) ?? '',
    county: str(v.county) ?? '',
    line1: str(v.line1) ?? '',
    line2: str(v.line2) ?? '',
    city: str(v.city) ?? '',
    zip: str(v.zip) ?? '',
    zip4: '',
    latitude: num(v.latitude),
    longitude: num(v.longitude),
    censusTract: tractIdOf(str(v.censusTract), fips, /^\d{5}$/.test(fips)),
    proptype,
    yearBuilt: num(v.yearBuilt),
    ...lotOf(v),
    subdivision: null,
    pool: null,
    vacant: vacantAsTyped({ proptype }),
    buildingSqft: num(v.buildingSqft),
    beds: num(v.beds),
    ...bathsOf(v),
    ...owners,
    mailing: mailingOf(v),
    assessment: assessmentOf(v),
    assessmentHistory: [],
    sales: salesOf(v, owners, opts),
    mortgages:
      v.mortgageAmount == null && v.mortgageDate == null && v.mortgageLender == null
        ? []
        : [{ amount: num(v.mortgageAmount), date: str(v.mortgageDate), lender: str(v.mortgageLender) }],
    lastModified: now,
  };
  return { input, ownersNotKept: notKept };
}

/**
 * owner1 to owner4 from the owner cells, however many owners each holds; `ownerType` overrides the first's type. And
 * the full names of the owners past the fourth, which the record has no place for (the import reports them).
 */
export function ownersOf(
  v: Values,
  opts: ParcelOptions,
): { owners: Pick<PropertyInput, OwnerField>; notKept: readonly string[] } {
  const cells = [str(v.ownerName), str(v.owner2Name)];
  if (cells.every((c) => c === null)) return { owners: NO_OWNERS, notKept: ALL_KEPT };
  const parsed = recordOwnersOf(parseOwnerCells(cells, opts.ownerOrder ?? 'last-first'));
  const [first, owner2, owner3, owner4] = parsed.owners;
  const type = str(v.ownerType);
  return {
    owners: { owner1: first && type ? { ...first, type } : first, owner2, owner3, owner4 },
    notKept: parsed.notKept,
  };
}

/** Names as an imported sale writes its buyers and sellers: each full name (as the owner-name parser reads them), joined by ' & '. */
const partyNames = (owners: readonly ({ fullName: string | null } | null)[]) =>
  owners.flatMap((o) => (o?.fullName ? [o.fullName] : [])).join(' & ');

/**
 * The row's sales: the last sale (bought by the owners, sold by the file's seller when it names one) and the earlier
 * ones written in columns of the same row. A sale needs its date; a refused date (applyCompiled) leaves no sale.
 */
function salesOf(v: Values, owners: Pick<PropertyInput, OwnerField>, opts: ParcelOptions): SaleInput[] {
  const buyer = partyNames(ownersInOrder(owners));
  const sellerCell = str(v.saleSeller);
  const seller = sellerCell === null ? '' : partyNames(parseOwnerCells([sellerCell], opts.sellerOrder ?? 'last-first'));
  const out: SaleInput[] = [];
  SALE_COLUMNS.forEach(([dateTarget, priceTarget, deedTarget], i) => {
    const date = str(v[dateTarget]);
    if (date === null) return;
    out.push({
      date,
      price: num(v[priceTarget]),
      // No roll names the deed's type; the recording date only when the file gives one (for its last sale).
      documentType: null,
      recordingDate: i === 0 ? str(v.saleRecordingDate) : null,
      buyerName: i === 0 ? buyer || null : null,
      sellerName: i === 0 ? seller || null : null,
      documentNumber: deedRef(str(v[deedTarget])),
    });
  });
  // Newest first, in the order the merge keeps (sale-merge.ts saleOrder): a re-import of the row then finds them as stored.
  // The same deed written twice is one sale: on one date at one price (a roll repeating its last sale among the prior
  // ones), or with its price in one column only (Lebanon's second prior sale has no price column: 580 of its parcels
  // repeat a deed there), what either says of it. A deed named on one side only is the other's. Two prices of one day
  // are two sales, and so are two deeds of one day whose book and page differ (106 of Lebanon's parcels), at one
  // price or two (sale-merge.ts saleKey).
  const kept: SaleInput[] = [];
  const sameDeed = (a: SaleInput, b: SaleInput) => {
    const [x, y] = [deedKey(a.documentNumber), deedKey(b.documentNumber)];
    return x === '' || y === '' || x === y;
  };
  for (const s of out.sort(saleOrder)) {
    const same = kept.find(
      (k) => k.date === s.date && sameDeed(k, s) && (k.price === s.price || k.price === null || s.price === null),
    );
    if (!same) {
      kept.push(s);
      continue;
    }
    same.price ??= s.price;
    same.recordingDate ??= s.recordingDate;
    same.buyerName ??= s.buyerName;
    same.sellerName ??= s.sellerName;
    same.documentNumber ??= s.documentNumber;
  }
  return kept;
}

export function toTract(v: Values, source: string): TractInput {
  const tract = str(v.tract)!;
  if (!/^\d{11}$/.test(tract)) throw new Error(`tract '${tract}' is not an 11-digit census tract GEOID`);
  return {
    tract,
    vintageYear: num(v.vintageYear)!,
    source: `${source}, ${num(v.vintageYear)}`,
    medianAge: num(v.medianAge),
    medianGrossRent: num(v.medianGrossRent),
    medianHomeValue: num(v.medianHomeValue),
    medianHouseholdIncome: num(v.medianHouseholdIncome),
    ownerOccupiedRate: num(v.ownerOccupiedRate),
    povertyRate: num(v.povertyRate),
    totalPopulation: num(v.totalPopulation),
    unemploymentRate: num(v.unemploymentRate),
    vacancyRate: num(v.vacancyRate),
  };
}
