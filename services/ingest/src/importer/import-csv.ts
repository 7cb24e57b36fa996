// Loads a county extract (CSV) through a mapping. Bad rows are reported with their line number and reason and
// skipped; good rows are written in batches, each batch one transaction, so a failure never half-commits one.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { apnKey, parseStreetLine, STATE_FIPS } from '@pra/core/address';
import type { Pool } from '@pra/platform';
import type { PropertyInput, TractInput } from '../domain/property-input.js';
import { buildCopyChunks } from '../data/copy-rows.js';
import { streetWithUnit } from '../domain/render-record.js';
import { reserveIds, writeBatch, writeTracts } from '../data/loader.js';
import { hash32 } from '../generator/random.js';
import { loadZipPlaces, type ZipPlace } from '../generator/reference-data.js';
import { convert, type FieldRule, type Mapping } from './mapping.js';

export interface RowError {
  line: number;
  reason: string;
}

export interface ImportSummary {
  mapping: string;
  rowsRead: number;
  loaded: number;
  /** Rows already loaded by an earlier run of the same mapping (a re-import adds nothing twice). */
  alreadyLoaded: number;
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
    if (!(rule.column in row)) throw new Error(`column '${rule.column}' (for ${target}) is missing from the file`);
    let raw = row[rule.column]!.trim();
    if (raw === '' || rule.nullIf.includes(raw)) {
      if (rule.required) throw new Error(`${target} ('${rule.column}') is empty`);
      out[target] = null;
      continue;
    }
    if (rule.map) raw = rule.map[raw] ?? raw;
    try {
      out[target] = convert(raw, rule.format);
    } catch (err) {
      throw new Error(`${target} ('${rule.column}'): ${(err as Error).message}`);
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

/** Builds a property from mapped values; geography the file lacks comes from the ZIP data set. */
export function toProperty(v: Values, now: string): PropertyInput {
  const zip = str(v.zip)!;
  const place = placeOf(zip);
  const state = str(v.state) ?? place?.state;
  if (!state || !STATE_FIPS[state]) throw new Error(`unknown state for ZIP ${zip}`);
  if (place && place.state !== state) throw new Error(`ZIP ${zip} is in ${place.state}, not ${state}`);
  const line1 = str(v.line1)!;
  const parsed = parseStreetLine(line1);
  if (parsed.houseNumber === null) throw new Error(`line1 '${line1}' has no house number`);
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
    line2: str(v.line2) ?? '',
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
    mortgages: [],
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

const addressKey = (p: PropertyInput) => {
  const s = parseStreetLine(streetWithUnit(p));
  return `${s.lineKey}|${p.zip}|${s.unitKey}`;
};

/** Rows of one file at the same address are one property with several sales (newest first). */
function mergeRepeatedAddresses(items: PropertyInput[]): PropertyInput[] {
  const byKey = new Map<string, PropertyInput>();
  for (const p of items) {
    const k = addressKey(p);
    const prior = byKey.get(k);
    if (!prior) byKey.set(k, p);
    else prior.sales = [...prior.sales, ...p.sales].sort((a, b) => b.date.localeCompare(a.date));
  }
  return [...byKey.values()];
}

async function withoutLoaded(pool: Pool, source: string, items: PropertyInput[]): Promise<PropertyInput[]> {
  const { rows } = await pool.query<{ k: string }>(
    `SELECT line_key || '|' || zip || '|' || unit_key AS k FROM records.properties WHERE source = $1 AND line_key = ANY($2)`,
    [source, items.map((p) => addressKey(p).split('|')[0])],
  );
  const loaded = new Set(rows.map((r) => r.k));
  return items.filter((p) => !loaded.has(addressKey(p)));
}

export async function importCsv(
  pool: Pool,
  mapping: Mapping,
  file: string,
  opts: { batchSize?: number; onBatch?: (rowsRead: number) => void } = {},
): Promise<ImportSummary> {
  const batchSize = opts.batchSize ?? 1_000;
  const summary: ImportSummary = {
    mapping: mapping.name,
    rowsRead: 0,
    loaded: 0,
    alreadyLoaded: 0,
    skipped: 0,
    errors: [],
  };
  const source = `import:${mapping.name}`;
  const now = new Date().toISOString();
  const parser = createReadStream(file).pipe(
    parse({
      columns: (h: string[]) => h.map((c) => c.replace(/^\uFEFF/, '').trim()),
      delimiter: mapping.delimiter,
      relax_column_count: true,
      info: true,
    }),
  );
  let properties: PropertyInput[] = [];
  let tracts: TractInput[] = [];
  const flush = async () => {
    if (properties.length > 0) {
      const fresh = await withoutLoaded(pool, source, mergeRepeatedAddresses(properties));
      summary.alreadyLoaded += properties.length - fresh.length;
      if (fresh.length > 0) {
        const start = await reserveIds(pool, fresh.length);
        await writeBatch(pool, buildCopyChunks(start, fresh, source), fresh.length);
      }
      summary.loaded += fresh.length;
      properties = [];
    }
    if (tracts.length > 0) {
      await writeTracts(pool, tracts);
      summary.loaded += tracts.length;
      tracts = [];
    }
    opts.onBatch?.(summary.rowsRead);
  };
  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number };
  }>) {
    summary.rowsRead++;
    try {
      const values = applyRules(mapping.fields, record);
      if (mapping.kind === 'property') properties.push(toProperty(values, now));
      else tracts.push(toTract(values, mapping.source));
    } catch (err) {
      summary.skipped++;
      summary.errors.push({ line: info.lines, reason: (err as Error).message });
    }
    if (properties.length + tracts.length >= batchSize) await flush();
  }
  await flush();
  return summary;
}
