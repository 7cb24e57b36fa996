// Builds the labelled address-matching set (address-variants.csv) from the real files of the hand-out's
// data/reference, as shipped in services/ingest/samples (the Brooklyn file gzipped):
//   npx tsx services/lookup/test/matching/build-address-variants.ts
// Every row is a query as a client could send it and the property it must find:
// - Brooklyn (NYC rolling sales): each parcel (BOROUGH-BLOCK-LOT) that the county itself wrote several ways with one
//   house number gives every one of its spellings ("131 74 STREET, 2L", "131 74TH STREET, 1G"); condominium lots
//   that share a street address give their address with the unit after a comma; co-op apartments give theirs.
//   The label is the parcel, from the county's own columns.
// - Sacramento: each sale's street as clients also write it (full or no street type, periods, a bare or spelled
//   ordinal, a unit after "#", "APT" or a comma), labelled by the sale's coordinates.
// The labels never come from the normaliser under test: they are the county's parcel or the file's own row.
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';

const SAMPLES = new URL('../../../ingest/samples/', import.meta.url);
const read = (name: string) =>
  parse(
    name.endsWith('.gz') ? gunzipSync(readFileSync(new URL(name, SAMPLES))) : readFileSync(new URL(name, SAMPLES)),
    {
      columns: (h: string[]) => h.map((c) => c.trim()),
      relax_column_count: true,
    },
  ) as Record<string, string>[];

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
const add = (v: Variant) => {
  const k = `${v.expect}|${v.zip}|${v.city}|${v.address}`;
  if (!seen.has(k)) {
    seen.add(k);
    out.push(v);
  }
};

// --- Brooklyn -------------------------------------------------------------------------------------------------
const pad = (s: string, n: number) => s.trim().padStart(n, '0');
const bbl = (r: Record<string, string>) => `${r.BOROUGH}-${pad(r.BLOCK!, 5)}-${pad(r.LOT!, 4)}`;
const squash = (s: string) => s.trim().replace(/\s+/g, ' ');
const streetPart = (r: Record<string, string>) => squash(r.ADDRESS!.split(',')[0]!);
/** The first token as a house number, a range reduced to its low end ("1090-1094" -> "1090"); "114A" stays. */
const house = (street: string) => /^(\d+[A-Z]?)(?:[-/]\d+)?\s/.exec(street)?.[1] ?? null;
const query = (r: Record<string, string>) => {
  const apt = r['APARTMENT NUMBER']!.trim();
  const address = squash(r.ADDRESS!);
  return apt !== '' && !address.includes(',') ? `${address}, ${apt}` : address;
};
const brooklyn = read('nyc-brooklyn-rolling-sales-2019.csv.gz').filter((r) => /^\d{5}$/.test(r['ZIP CODE']!.trim()));
const byParcel = new Map<string, Record<string, string>[]>();
for (const r of brooklyn) byParcel.set(bbl(r), [...(byParcel.get(bbl(r)) ?? []), r]);

for (const [parcel, rows] of byParcel) {
  const streets = new Set(rows.map(streetPart));
  const houses = new Set(rows.map((r) => house(streetPart(r))));
  if (houses.size !== 1 || houses.has(null)) continue; // a complex over several buildings: not one address
  const cls = streets.size > 1 ? 'nyc-spelling' : new Set(rows.map(query)).size > 1 ? 'nyc-coop-unit' : null;
  if (cls === null) continue;
  for (const r of rows) {
    add({ cls, expect: `apn:${parcel}`, zip: r['ZIP CODE']!.trim(), city: '', state: '', address: query(r) });
  }
}
// Condominium lots: several parcels at one street address, told apart by the unit after the comma.
const byStreet = new Map<string, Set<string>>();
for (const r of brooklyn) {
  const k = `${streetPart(r)}|${r['ZIP CODE']!.trim()}`;
  byStreet.set(k, (byStreet.get(k) ?? new Set()).add(bbl(r)));
}
const condoRows = brooklyn
  .filter((r) => r.ADDRESS!.includes(',') && (byStreet.get(`${streetPart(r)}|${r['ZIP CODE']!.trim()}`)?.size ?? 0) > 1)
  .filter((r) => byParcel.get(bbl(r))!.length === 1) // a lot sold once: its one row is its address
  .sort((a, b) => bbl(a).localeCompare(bbl(b)));
for (const [i, r] of condoRows.entries()) {
  if (i % 8 !== 0) continue;
  add({
    cls: 'nyc-condo-unit',
    expect: `apn:${bbl(r)}`,
    zip: r['ZIP CODE']!.trim(),
    city: '',
    state: '',
    address: query(r),
  });
}

// --- Sacramento -----------------------------------------------------------------------------------------------
const FULL: Record<string, string> = {
  ST: 'STREET',
  AVE: 'AVENUE',
  DR: 'DRIVE',
  CT: 'COURT',
  CIR: 'CIRCLE',
  LN: 'LANE',
  RD: 'ROAD',
  PL: 'PLACE',
  BLVD: 'BOULEVARD',
  PKWY: 'PARKWAY',
  WAY: 'WAY',
  TER: 'TERRACE',
  LOOP: 'LOOP',
};
const SPELLED = ['', 'FIRST', 'SECOND', 'THIRD', 'FOURTH', 'FIFTH', 'SIXTH', 'SEVENTH', 'EIGHTH', 'NINTH', 'TENTH'];
const title = (s: string) => s.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
for (const [i, r] of read('sacramento-2008-sales.csv').entries()) {
  const expect = `latlon:${r.latitude},${r.longitude}`;
  const byZip = i % 3 !== 2; // a third of the queries give city and state instead of the ZIP
  const place = byZip ? { zip: r.zip!, city: '', state: '' } : { zip: '', city: title(r.city!), state: r.state! };
  const m = /^(.*?)\s+Unit\s+(\S+)$/i.exec(r.street!);
  const street = m ? m[1]! : r.street!;
  const unit = m ? m[2]! : null;
  const words = street.split(' ');
  const type = words[words.length - 1]!;
  const v = (cls: string, address: string) => add({ cls, expect, ...place, address });
  if (FULL[type]) {
    v('sac-type-spelled', [...words.slice(0, -1), FULL[type]].join(' '));
    v('sac-type-period', `${title(street)}.`);
    if (type !== 'WAY') v('sac-type-missing', words.slice(0, -1).join(' '));
  }
  const ordinal = words.findIndex((w, k) => k > 0 && /^\d+(ST|ND|RD|TH)$/.test(w));
  if (ordinal > 0) {
    const n = Number.parseInt(words[ordinal]!, 10);
    v('sac-ordinal-bare', words.map((w, k) => (k === ordinal ? String(n) : w)).join(' '));
    if (SPELLED[n]) v('sac-ordinal-spelled', words.map((w, k) => (k === ordinal ? SPELLED[n] : w)).join(' '));
  }
  if (unit) {
    v('sac-unit', `${title(street)} #${unit}`);
    v('sac-unit', `${street}, APT ${unit}`);
    v('sac-unit', `${street}, ${unit}`);
  }
}

const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const lines = [
  'class,expect,zip,city,state,address',
  ...out.map((v) => [v.cls, v.expect, v.zip, v.city, v.state, v.address].map(csvCell).join(',')),
];
writeFileSync(new URL('address-variants.csv', import.meta.url), `${lines.join('\n')}\n`);
const counts = new Map<string, number>();
for (const v of out) counts.set(v.cls, (counts.get(v.cls) ?? 0) + 1);
console.log(`${out.length} labelled queries:`, Object.fromEntries(counts));
