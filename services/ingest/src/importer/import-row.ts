// One row of a county file as the store takes it: the mapping's rules applied to its cells, then the property (or
// tract vintage) they describe, with geography the file lacks taken from the ZIP data set. Pure, so that it runs in
// the import's worker threads as well as in the main one.
import { apnKey, parseStreetLine, STATE_FIPS, type StreetLine, UNIT_DESIGNATORS } from '@pra/core/address';
import type { PropertyInput, TractInput } from '../domain/property-input.js';
import { hash32 } from '../generator/random.js';
import { loadZipPlaces, type ZipPlace } from '../generator/reference-data.js';
import { convert, fillTemplate, type FieldRule } from './mapping.js';

export type Value = string | number | null | undefined;
export type Values = Record<string, Value>;

export function applyRules(fields: Partial<Record<string, FieldRule>>, row: Record<string, string>): Values {
  const out: Values = {};
  for (const [target, rule] of Object.entries(fields)) {
    if (!rule) continue;
    if ('value' in rule) {
      out[target] = rule.value;
      continue;
    }
    const source = 'column' in rule ? `'${rule.column}'` : `'${rule.template}'`;
    let raw = 'column' in rule ? row[rule.column]!.trim() : fillTemplate(rule.template, row);
    if (raw === '' || rule.nullIf.includes(raw)) {
      if (rule.required) throw new Error(`${target} (${source}) is empty`);
      out[target] = null;
      continue;
    }
    if ('map' in rule && rule.map) raw = rule.map[raw] ?? raw;
    try {
      out[target] = convert(raw, rule.format);
    } catch (err) {
      throw new Error(`${target} (${source}): ${(err as Error).message}`);
    }
  }
  return out;
}

const str = (v: Value) => (v === null || v === undefined ? null : String(v));
const num = (v: Value) => (v === null || v === undefined ? null : Number(v));

let zipIndex: Map<string, ZipPlace> | null = null;
function placeOf(zip: string): ZipPlace | undefined {
  zipIndex ??= new Map(loadZipPlaces().map((p) => [p.zip, p]));
  return zipIndex.get(zip);
}

/** A unit as shown in line2: "APT 4" stays, a bare id gets the "#" designator ("2C" -> "# 2C"). */
function unitLine(unit: string): string {
  const u = unit.trim().toUpperCase().replace(/\s+/g, ' ');
  const first = u.split(/[\s\d]/)[0] ?? '';
  return u.startsWith('#') || UNIT_DESIGNATORS.has(first) ? u : `# ${u}`;
}

/** Street lines parsed lately: a building's units repeat its address, and the search below parses its starts. */
const parsedLines = new Map<string, StreetLine>();
function parseLine(line: string): StreetLine {
  let s = parsedLines.get(line);
  if (s === undefined) {
    if (parsedLines.size >= 20_000) parsedLines.clear();
    s = parseStreetLine(line);
    parsedLines.set(line, s);
  }
  return s;
}

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
      if (p.lineKey === parsed.lineKey && p.unitKey === '') {
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
  const { line1, line2 } = splitLine(line, unitColumn);
  return { line1, line2 };
}

const INT4 = 2_147_483_647;
const INTEGER_TARGETS = ['salePrice', 'assessedTotal', 'marketTotal', 'taxYear', 'yearBuilt', 'beds', 'buildingSqft'];
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
 * postcode is not a row error). Without a ZIP the record shows it and leaves absentee ownership unknown.
 */
function mailingOf(v: Values): PropertyInput['mailing'] {
  const line1 = str(v.mailingLine1)?.replace(/\s+/g, ' ');
  if (!line1) return null;
  return { line1, city: str(v.mailingCity) ?? '', state: str(v.mailingState) ?? '', zip: str(v.mailingZip) ?? '' };
}

/** Builds a property from mapped values; geography the file lacks comes from the ZIP data set. */
export function toProperty(v: Values, now: string): PropertyInput {
  return toParcel(v, now).input;
}

/** A property from mapped values, with its street line parsed (once: the identity and checks use it). */
export function toParcel(v: Values, now: string): { input: PropertyInput; street: StreetLine } {
  checkRanges(v);
  const zip = str(v.zip)!;
  const place = placeOf(zip);
  const state = str(v.state) ?? place?.state;
  if (!state || !STATE_FIPS[state]) throw new Error(`unknown state for ZIP ${zip}`);
  if (place && place.state !== state) throw new Error(`ZIP ${zip} is in ${place.state}, not ${state}`);
  // "N/A FULTON STREET": a parcel without a house number (vacant land, a lot behind others).
  const written = str(v.line1)!.replace(/^(N\/A|N\.A\.|UNKNOWN|NONE)\s+/i, '');
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
  const fips = place?.fips ?? `${STATE_FIPS[state]}000`;
  const derivedApn = String(hash32(`${fips}|${parsed.lineKey}|${parsed.unitKey}`)).padStart(10, '0');
  const apn = str(v.apn) ?? `${derivedApn.slice(0, 3)}-${derivedApn.slice(3, 7)}-${derivedApn.slice(7)}`;
  const ownerName = str(v.ownerName);
  const saleDate = str(v.saleDate);
  const assessedTotal = num(v.assessedTotal);
  const input: PropertyInput = {
    apn,
    apnOrig: str(v.apn) ?? apnKey(apn),
    ...(str(v.apn) === null ? { apnDerived: true as const } : {}),
    taxParcelId: str(v.taxParcelId),
    fips,
    state,
    county: str(v.county) ?? place?.county ?? 'UNKNOWN',
    line1,
    line2,
    city: str(v.city) ?? place?.city ?? 'UNKNOWN',
    zip,
    zip4: str(v.zip4) ?? '',
    latitude: num(v.latitude) ?? place?.latitude ?? null,
    longitude: num(v.longitude) ?? place?.longitude ?? null,
    censusTract: str(v.censusTract),
    proptype: str(v.proptype) ?? 'UNKNOWN',
    yearBuilt: num(v.yearBuilt),
    lotSqft: num(v.lotSqft),
    lotAcres: num(v.lotSqft) === null ? null : +(num(v.lotSqft)! / 43_560).toFixed(4),
    subdivision: null,
    pool: null,
    vacant: false,
    buildingSqft: num(v.buildingSqft),
    beds: num(v.beds),
    bathsTotal: num(v.bathsTotal),
    bathsPartial: null,
    owner1: ownerName
      ? {
          firstName: null,
          lastName: null,
          fullName: ownerName,
          type: (str(v.ownerType) as 'Individual' | null) ?? 'Individual',
        }
      : null,
    owner2: null,
    mailing: mailingOf(v),
    assessment:
      assessedTotal === null && num(v.marketTotal) === null
        ? null
        : {
            taxYear: num(v.taxYear) ?? new Date(now).getUTCFullYear(),
            land: null,
            improvements: null,
            total: assessedTotal,
            marketTotal: num(v.marketTotal),
            taxAmount: null,
            avmValue: null,
            avmDate: null,
            rentalEstimate: null,
            rentalSource: null,
          },
    assessmentHistory: [],
    sales: saleDate
      ? [
          {
            date: saleDate,
            price: num(v.salePrice),
            documentType: 'DEED',
            recordingDate: saleDate,
            buyerName: ownerName,
            sellerName: null,
          },
        ]
      : [],
    mortgages:
      v.mortgageAmount == null && v.mortgageDate == null && v.mortgageLender == null
        ? []
        : [{ amount: num(v.mortgageAmount), date: str(v.mortgageDate), lender: str(v.mortgageLender) }],
    lastModified: now,
  };
  return { input, street: parsed };
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
