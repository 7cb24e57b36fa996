// Fills the location and property type columns (migration 0011) of records stored before them. SQL cannot read a
// compressed body, so this reads every unfilled record here, in id order, a batch per transaction, online beside
// lookups and loads. It runs at the start of every rekey (rekey.ts: `npm run ingest -- rekey`, npm start in the
// background, the chart's rekey Job), so an upgraded store fills itself; area search answers 503 until
// `records.dataset_stats.locations_filled` is set.
//
// "Unfilled" is `proptype IS NULL`: every write since 0011 sets it (copy-rows.ts). Rows a writer holds are skipped
// (SKIP LOCKED: the writer rewrites them with their columns anyway); the flag is set only once no unfilled row is
// left (one scan of the table at the end), else the pass runs again. A killed run starts over, skipping filled rows.
import { decodeRecordBody } from '@pra/core/stored/body';
import { withTransaction, type Pool } from '@pra/platform/db';
import { locationPoint } from './copy-rows.js';
import { UNKNOWN_PROPERTY_TYPE } from '@pra/core/vocabulary';

export interface FillOptions {
  batchSize?: number;
  pauseMs?: number;
  progressEveryMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether every stored record has its location columns (area search is served). */
export async function locationsFilled(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ filled: boolean }>(
    'SELECT locations_filled AS filled FROM records.dataset_stats',
  );
  return rows[0]?.filled ?? false;
}

/** What a stored body says: its coordinates and property type. */
function locationOf(body: Buffer): { location: string | null; proptype: string } {
  const r = JSON.parse(decodeRecordBody(body)) as {
    location?: { latitude?: number | null; longitude?: number | null };
    summary?: { proptype?: string | null };
  };
  const point = locationPoint({ latitude: r.location?.latitude ?? null, longitude: r.location?.longitude ?? null });
  // As a point's text (a -0 written "0", as a load's binary rows store it).
  return {
    location: point && `(${point[0]},${point[1]})`,
    proptype: (r.summary?.proptype ?? UNKNOWN_PROPERTY_TYPE).toUpperCase(),
  };
}

/** Fills what is unfilled; returns how many records it filled (0 when the store was filled already). */
export async function fillLocations(
  pool: Pool,
  log: (line: string) => void = () => {},
  { batchSize = 5_000, pauseMs = 0, progressEveryMs = 10_000 }: FillOptions = {},
): Promise<number> {
  if (await locationsFilled(pool)) return 0;
  log('locations: filling the location of records stored before area search (it answers 503 until done)');
  let filled = 0;
  let lastLog = performance.now();
  for (;;) {
    let after = 0;
    for (;;) {
      const batch = await withTransaction(pool, async (c) => {
        const { rows } = await c.query<{ id: string; body: Buffer }>(
          `SELECT id, body FROM records.properties WHERE id > $1 AND proptype IS NULL
            ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [after, batchSize],
        );
        if (rows.length === 0) return null;
        const cols = rows.map((r) => locationOf(r.body));
        await c.query(
          `UPDATE records.properties p SET location = u.location::point, proptype = u.proptype
             FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(id, location, proptype) WHERE p.id = u.id`,
          [rows.map((r) => r.id), cols.map((x) => x.location), cols.map((x) => x.proptype)],
        );
        return { read: rows.length, last: Number(rows[rows.length - 1]!.id) };
      });
      if (batch === null) break;
      after = batch.last;
      filled += batch.read;
      if (performance.now() - lastLog >= progressEveryMs) {
        lastLog = performance.now();
        log(`locations: ${filled.toLocaleString('en-US')} records filled, up to property id ${after}`);
      }
      if (pauseMs > 0) await sleep(pauseMs);
    }
    const { rowCount } = await pool.query(
      `UPDATE records.dataset_stats SET locations_filled = true
        WHERE NOT EXISTS (SELECT 1 FROM records.properties WHERE proptype IS NULL)`,
    );
    if (rowCount === 1) break;
    await sleep(200); // rows a writer held: once more, after it
  }
  log(`locations: done, ${filled.toLocaleString('en-US')} records filled; area search is served`);
  return filled;
}
