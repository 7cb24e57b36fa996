// A roll without site ZIPs is read twice: first for its evidence (zip-evidence.ts), the parcels whose owner is mailed
// at the parcel itself, in a ZIP of the county; then imported, each parcel without a ZIP of its own taking the one its
// street segment's evidence shares. The evidence is the file's alone, so a re-import finds the same ZIPs.
import type { ZipEvidenceEntry } from '../domain/zip-evidence.js';
import { applyCompiled, compileRules, latestDateOf } from './apply-rules.js';
import { readCsvRecords } from './csv-records.js';
import { zipEvidenceOf } from './import-row.js';
import type { Mapping } from './mapping.js';

/** A mapping that makes parcels and gives no site ZIP: its parcels' ZIPs come from evidence. */
export function needsZipEvidence(mapping: Mapping & { kind: 'property' }): boolean {
  return !mapping.join && !mapping.fields.zip && !mapping.fields.cityStateZip;
}

export async function readZipEvidence(
  mapping: Mapping & { kind: 'property' },
  file: string,
  now: string,
): Promise<ZipEvidenceEntry[]> {
  const ctx = { line: 0, latestDate: latestDateOf(now) };
  const out: ZipEvidenceEntry[] = [];
  const rules = compileRules(mapping.fields);
  for await (const item of readCsvRecords(file, mapping.delimiter)) {
    if ('error' in item) continue;
    ctx.line = item.line;
    try {
      // The row's place only, as the import reads it: a row whose place the import refuses is no evidence.
      const evidence = zipEvidenceOf(applyCompiled(rules, item.fields, ctx));
      if (!evidence) continue;
      const { street, zip } = evidence;
      const n = street.houseNumber === null ? Number.NaN : Number.parseInt(street.houseNumber, 10);
      if (Number.isFinite(n)) out.push([street.streetKey, n, zip]);
    } catch {
      // A row the import reports; it is no evidence.
    }
  }
  return out;
}
