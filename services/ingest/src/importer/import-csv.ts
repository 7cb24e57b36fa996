// Loads a county extract (CSV) through a mapping. Bad rows are reported with their line number and reason and
// skipped; good rows become properties (one per parcel: see import-merge.ts) written in batches, each batch one
// transaction, so a failure never half-commits one. A re-import updates what changed and adds nothing twice.
import { statSync } from 'node:fs';
import { apnKey, parseStreetLine, STATE_FIPS, UNIT_DESIGNATORS } from '@pra/core/address';
import type { Pool } from '@pra/platform';
import type { PropertyInput, TractInput } from '../domain/property-input.js';
import { writeTracts } from '../data/loader.js';
import { withSourceLock } from '../data/source-lock.js';
import { hash32 } from '../generator/random.js';
import { loadZipPlaces, type ZipPlace } from '../generator/reference-data.js';
import { readCsvRecords, readHeader } from './csv-records.js';
import { mappedFields, mergeParcel, parcelIdentity } from './import-merge.js';
import { checkImportState, writeImportBatch } from './import-store.js';
import { convert, fillTemplate, mappingColumns, type FieldRule, type Mapping } from './mapping.js';

export interface RowError {
  line: number;
  reason: string;
}

export interface ImportSummary {
  mapping: string;
  rowsRead: number;
  /** Properties (or tract vintages) not in the store before. */
  added: number;
  /** Properties already in the store whose record changed: a new sale, another owner, a new assessment... */
  updated: number;
  /** Properties already in the store exactly as this file has them. */
  unchanged: number;
  /** Rows that could not be read or converted; each is in `errors` with its line. */
  skipped: number;
  errors: RowError[];
}

type Value = string | number | null | undefined;
type Values = Record<string, Value>;

function applyRules(fields: Partial<Record<string, FieldRule>>, row: Record<string, string>): Values {
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

/**
 * Moves a unit written into the address line ("345 WEST 21ST STREET, 2C", "12 MAIN ST APT 4") into line2, so that
 * imported records have the shape of every other record; a unit column fills it when the line has none.
 */
export function splitAddressLine(line: string, unitColumn: string | null): { line1: string; line2: string } {
  const whole = line.trim().replace(/\s+/g, ' ');
  const parsed = parseStreetLine(whole);
  let line1 = whole;
  let written = '';
  if (parsed.unitKey !== '') {
    // The shortest start of the line that is the same street line without a unit.
    for (let i = 0; i < whole.length; i++) {
      if (whole[i] !== ' ' && whole[i] !== ',') continue;
      const head = whole.slice(0, i).replace(/,\s*$/, '').trim();
      const p = parseStreetLine(head);
      if (p.lineKey === parsed.lineKey && p.unitKey === '') {
        line1 = head;
        written = whole.slice(i).replace(/^[\s,]+/, '');
        break;
      }
    }
  }
  // Both given and different ("9 ARGYLE ROAD, 4C" with 16 in the unit column): the line is what clients write.
  const unit = written || unitColumn?.trim() || '';
  return { line1, line2: unit === '' ? '' : unitLine(unit) };
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

/** Builds a property from mapped values; geography the file lacks comes from the ZIP data set. */
export function toProperty(v: Values, now: string): PropertyInput {
  checkRanges(v);
  const zip = str(v.zip)!;
  const place = placeOf(zip);
  const state = str(v.state) ?? place?.state;
  if (!state || !STATE_FIPS[state]) throw new Error(`unknown state for ZIP ${zip}`);
  if (place && place.state !== state) throw new Error(`ZIP ${zip} is in ${place.state}, not ${state}`);
  // "N/A FULTON STREET": a parcel without a house number (vacant land, a lot behind others).
  const written = str(v.line1)!.replace(/^(N\/A|N\.A\.|UNKNOWN|NONE)\s+/i, '');
  const { line1, line2 } = str(v.line2)
    ? { line1: written, line2: str(v.line2)! }
    : splitAddressLine(written, str(v.unit));
  const parsed = parseStreetLine(line2 ? `${line1} ${line2}` : line1);
  // Without an APN the address is the parcel, so it needs its number; with one, the parcel is found by its APN.
  if (parsed.houseNumber === null && str(v.apn) === null) throw new Error(`line1 '${line1}' has no house number`);
  const fips = place?.fips ?? `${STATE_FIPS[state]}000`;
  const derivedApn = String(hash32(`${fips}|${parsed.lineKey}|${parsed.unitKey}`)).padStart(10, '0');
  const apn = str(v.apn) ?? `${derivedApn.slice(0, 3)}-${derivedApn.slice(3, 7)}-${derivedApn.slice(7)}`;
  const ownerName = str(v.ownerName);
  const saleDate = str(v.saleDate);
  const assessedTotal = num(v.assessedTotal);
  return {
    apn,
    apnOrig: str(v.apn) ?? apnKey(apn),
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
    mailing: null,
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

export interface ImportProgressEvent {
  rowsRead: number;
  bytesRead: number;
  /** The file's size in bytes, when it could be read (not for a pipe). */
  totalBytes: number | null;
}

function fileSize(file: string): number | null {
  try {
    const st = statSync(file);
    return st.isFile() ? st.size : null;
  } catch {
    return null;
  }
}

export async function importCsv(
  pool: Pool,
  mapping: Mapping,
  file: string,
  opts: {
    batchSize?: number;
    onProgress?: (p: ImportProgressEvent) => void;
    /** Told when another import or remove of the source holds its lock, before this one waits for it. */
    onWait?: (message: string) => void;
  } = {},
): Promise<ImportSummary> {
  const batchSize = opts.batchSize ?? 1_000;
  const summary: ImportSummary = {
    mapping: mapping.name,
    rowsRead: 0,
    added: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    errors: [],
  };
  const source = `import:${mapping.name}`;
  const now = new Date().toISOString();
  const byApn = mapping.kind === 'property' && mapping.fields.apn !== undefined;
  // What this file speaks for: an empty cell in a mapped column clears the stored value; an unmapped one keeps it.
  const mapped = mappedFields(Object.keys(mapping.fields));
  const header = new Set(await readHeader(file, mapping.delimiter));
  const missing = mappingColumns(mapping).filter((c) => !header.has(c));
  if (missing.length > 0) {
    throw new Error(
      `${file} has no column ${missing.map((c) => `'${c}'`).join(', ')} that mapping ${mapping.name} reads; its columns are: ${[...header].join(', ')}`,
    );
  }
  const totalBytes = fileSize(file);
  // One import or remove of a source at a time: two imports would both take a parcel for new.
  await withSourceLock(
    pool,
    source,
    async () => {
      if (mapping.kind === 'property') await checkImportState(pool, source);
      let parcels = new Map<string, PropertyInput>();
      let tracts: TractInput[] = [];
      let tractsAdded = 0;
      let bytesRead = 0;
      // What happened to each parcel over the whole file: one whose rows span batches is added once, not then updated.
      const seen = { added: new Set<string>(), updated: new Set<string>(), unchanged: new Set<string>() };
      const flush = async () => {
        if (parcels.size > 0) {
          const written = (id: string) => seen.added.has(id) || seen.updated.has(id) || seen.unchanged.has(id);
          const outcome = await writeImportBatch(
            pool,
            source,
            [...parcels].map(([identity, input]) => ({ identity, input, continued: written(identity) })),
            now,
            mapped,
          );
          for (const id of outcome.added) seen.added.add(id);
          for (const id of outcome.updated) if (!seen.added.has(id)) seen.updated.add(id);
          for (const id of outcome.unchanged) if (!seen.added.has(id) && !seen.updated.has(id)) seen.unchanged.add(id);
          summary.added = seen.added.size + tractsAdded;
          summary.updated = seen.updated.size;
          summary.unchanged = seen.unchanged.size;
          parcels = new Map();
        }
        if (tracts.length > 0) {
          await writeTracts(pool, tracts);
          tractsAdded += tracts.length;
          summary.added = seen.added.size + tractsAdded;
          tracts = [];
        }
        opts.onProgress?.({ rowsRead: summary.rowsRead, bytesRead, totalBytes });
      };
      for await (const item of readCsvRecords(file, mapping.delimiter)) {
        summary.rowsRead++;
        bytesRead = item.bytes;
        try {
          if ('error' in item) throw new Error(item.error);
          const values = applyRules(mapping.fields, item.fields);
          if (mapping.kind === 'property') {
            const p = toProperty(values, now);
            const identity = parcelIdentity(p, byApn);
            const prior = parcels.get(identity);
            parcels.set(identity, prior ? mergeParcel(prior, p) : p);
          } else tracts.push(toTract(values, mapping.source));
        } catch (err) {
          summary.skipped++;
          summary.errors.push({ line: item.line, reason: (err as Error).message });
        }
        if (parcels.size + tracts.length >= batchSize) await flush();
      }
      await flush();
    },
    opts.onWait,
  );
  return summary;
}
