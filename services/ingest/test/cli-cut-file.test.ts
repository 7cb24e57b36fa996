// A county file cut short (a download stopped part way) or damaged, as a user meets it: the reader names the file
// and what to do rather than zlib's bare `unexpected end of file`, and an import that fails after some of its
// batches were written says how many rows those were and that importing the whole file again finishes the job; it
// then finds them unchanged and writes the rest (nothing lost, nothing twice).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, withDatabase } from '@pra/platform';
import { readCsvRecords } from '../src/importer/csv-records.js';
import { COUNTY_ROLLS } from '../src/importer/index.js';
import { freshStore, runIngest } from './cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'pra-cut-file-'));
const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_cut_file`);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropDatabase(url);
});

async function readAll(file: string): Promise<number> {
  let n = 0;
  for await (const _ of readCsvRecords(file, ',')) n++;
  return n;
}

it('names a .gz cut short or damaged, and says to fetch it again', async () => {
  const whole = gzipSync(`A,B\n${'1,2\n'.repeat(50_000)}`);
  const cut = join(dir, 'cut.csv.gz');
  writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
  await expect(readAll(cut)).rejects.toThrow(
    new RegExp(
      `^${cut.replace(/[.]/g, '\\.')} is not a whole gzip file \\(unexpected end of file, [\\d,]+ bytes in\\): .*fetch the file again`,
    ),
  );
  const notGzip = join(dir, 'plain.csv.gz');
  writeFileSync(notGzip, 'A,B\n1,2\n');
  await expect(readAll(notGzip)).rejects.toThrow(/plain\.csv\.gz is not a whole gzip file \(incorrect header check/);
  // A file that is missing keeps its own error (not a gzip's).
  await expect(readAll(join(dir, 'missing.csv.gz'))).rejects.toThrow(/ENOENT/);
  // A whole one reads.
  const ok = join(dir, 'whole.csv.gz');
  writeFileSync(ok, whole);
  expect(await readAll(ok)).toBe(50_000);
});

it('an import cut short by its file says what it wrote; the whole file again writes the rest and nothing twice', async () => {
  const { mapping, file } = COUNTY_ROLLS.philadelphia![0]!;
  const bytes = readFileSync(file);
  // Past two batches of 2,000 rows, short of the third's end.
  const cut = join(dir, 'philadelphia-cut.csv.gz');
  writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.95)));
  await freshStore(url);
  const pool = createPool(url, 1, 'cut-file-test');
  try {
    const failed = runIngest(url, 'import', '--mapping', mapping, '--file', cut);
    expect(failed.status, failed.stderr).toBe(1);
    expect(failed.stderr).toContain(`ingest failed: ${cut} is not a whole gzip file (unexpected end of file`);
    // Not a connection failure: no hint to check the server.
    expect(failed.stderr).not.toContain('Check that the PostgreSQL');
    const stored = Number((await pool.query('SELECT count(*) FROM records.properties')).rows[0].count);
    // The batches read before the reader failed are all written (the reader hands over every batch it finished), and
    // what it says is what the store holds: two batches of 2,000 rows, less the sample's one row without a ZIP.
    expect(failed.stderr).toContain("At least the file's first 4,000 rows were written before this");
    expect(stored).toBe(3_999);

    const again = runIngest(url, 'import', '--mapping', mapping, '--file', file);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(
        `properties: ${(5_335 - stored).toLocaleString('en-US')} new, 0 updated, ${stored.toLocaleString('en-US')} unchanged`,
      ),
    );
    expect(Number((await pool.query('SELECT count(*) FROM records.properties')).rows[0].count)).toBe(5_335);
  } finally {
    await pool.end();
  }
}, 180_000);

it('an import cut short while rows are held says which rows it wrote; the whole file again writes the rest', async () => {
  const { mapping, file } = COUNTY_ROLLS.philadelphia![0]!;
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
  // The 100th row's parcel again after the 1,000th: held to the file's end, which the cut file never reaches.
  const copy = [...lines.slice(0, 1001), lines[100]!, ...lines.slice(1001)];
  const bytes = gzipSync(copy.join('\n'));
  const cut = join(dir, 'philadelphia-held-cut.csv.gz');
  writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.95)));
  const whole = join(dir, 'philadelphia-held.csv.gz');
  writeFileSync(whole, bytes);
  await freshStore(url);
  const pool = createPool(url, 1, 'cut-file-test');
  try {
    const failed = runIngest(url, 'import', '--mapping', mapping, '--file', cut);
    expect(failed.status, failed.stderr).toBe(1);
    // Two batches of the rows not held are written: the file's rows but the one held, of which the first 1,000 are
    // the file's first all.
    expect(failed.stderr).toContain(
      "At least 4,000 rows (the file's first 1,000 all among them) were written before this",
    );
    expect(Number((await pool.query('SELECT count(*) FROM records.properties')).rows[0].count)).toBe(3_999);
    const again = runIngest(url, 'import', '--mapping', mapping, '--file', whole);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('properties: 1,336 new, 0 updated, 3,999 unchanged');
    expect(Number((await pool.query('SELECT count(*) FROM records.properties')).rows[0].count)).toBe(5_335);
  } finally {
    await pool.end();
  }
}, 180_000);
