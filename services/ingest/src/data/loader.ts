// Writes properties and tract demographics with COPY. Each batch is one transaction across every table, so a
// failed batch leaves nothing behind; ids come from a block reserved on the sequence.
import {
  type Db,
  idArrayLiteral,
  onConnection,
  type Pool,
  type PoolClient,
  runStatements,
  transaction,
} from '@pra/platform/db';
import type { TractInput } from '../domain/property-input.js';
import { recordChangesStatements } from './change-feed.js';
import { binaryCopyFirstInt8s } from './copy-binary.js';
import { appendChangeEvents, type ChangeEventDraft, storedOwnerIds } from './change-events.js';
import { drawIdBlockStatement, firstOfBlock } from './id-blocks.js';
import { LOCK_AGAINST_MERGES, settleMergedOwnersStatement } from './owner-registry.js';
import { copyStep, runScript, type ScriptStep } from './write-script.js';
import {
  COLUMNS,
  COPY_FORMAT,
  type CopyBytes,
  type CopyChunks,
  copyLine,
  ID_COLUMN,
  TABLES,
  tractProfileBody,
} from './copy-rows.js';

/**
 * Reserves `count` consecutive property ids; returns the first. The draw's lock and the draw in one round trip: one
 * transaction (runStatements), the lock held to its end.
 */
export async function reserveIds(pool: Pool, count: number): Promise<number> {
  return onConnection(pool, async (c) => {
    const [, drawn] = await runStatements(c, [
      "SELECT pg_advisory_xact_lock(hashtext('records.property_id_seq'))",
      drawIdBlockStatement('records.property_id_seq', count),
    ]);
    return firstOfBlock(drawn!, count);
  });
}

/**
 * Writes one batch of pre-built COPY data (copy-rows.ts: as built, or as bytes from a worker) to every table in one
 * transaction, on a pooled connection or on the one `db` is (an import writes on its source lock's: source-lock.ts).
 * `added` new properties are counted; `replaceIds` are properties rewritten in place (their old rows go first);
 * `alsoWrite` is what else must commit with the batch (an import's state), after its records and feed row;
 * `events` are its change events (of `source`).
 *
 * One round trip (write-script.ts), but for a batch with change events: the owners its records had are read before
 * their rows are replaced, and the events are appended last under the feed's lock, so eight (BEGIN, the lock, the
 * owners, the rows, the count, the feed's lock, the events, COMMIT). `inTransaction` (tests) runs in the
 * transaction after the batch's rows and before its record count, which then takes that way too.
 */
export async function writeBatch(
  db: Db,
  chunks: CopyChunks | CopyBytes,
  added: number,
  opts: {
    replaceIds?: readonly number[];
    alsoWrite?: readonly ScriptStep[];
    inTransaction?: (c: PoolClient) => Promise<void>;
    events?: { source: string; drafts: readonly ChangeEventDraft[] };
    /** The owner ids its owner mentions carry (owner-registry.ts settleMergedOwnersStatement); none: not settled. */
    ownerIds?: readonly (number | null)[];
  } = {},
): Promise<void> {
  // Before any row is deleted or copied: a merge waiting on them while this waits on it would deadlock.
  const head = ['SET LOCAL synchronous_commit = off', ...(opts.ownerIds ? [LOCK_AGAINST_MERGES] : [])];
  const rows = batchRows(chunks, opts);
  if (!Number.isSafeInteger(added)) throw new Error(`a count of records added must be an integer: ${added}`);
  const count = `UPDATE records.dataset_stats SET property_count = property_count + ${added}, updated_at = now()`;
  const drafts = opts.events?.drafts ?? [];
  if (drafts.length === 0 && !opts.inTransaction) return runScript(db, [...head, ...rows, count]);
  await transaction(db, async (c) => {
    await runStatements(c, head);
    // The owners the changed records had, read before their rows are replaced: an owner's feed shows what it sold.
    const priorOwners = await storedOwnerIds(
      c,
      drafts.filter((e) => !e.parts.includes('created')).map((e) => e.propertyId),
    );
    await runScript(c, rows, { inOpenTransaction: true });
    await opts.inTransaction?.(c);
    await c.query(count);
    // Last: the feed's lock is held from here to the commit.
    if (opts.events) await appendChangeEvents(c, opts.events.source, drafts, priorOwners);
  });
}

/** A batch's rows as script steps: the replaced ones deleted, every table's copied, owners settled, the feed row. */
function batchRows(
  chunks: CopyChunks | CopyBytes,
  opts: { replaceIds?: readonly number[]; alsoWrite?: readonly ScriptStep[]; ownerIds?: readonly (number | null)[] },
): ScriptStep[] {
  const replaced = opts.replaceIds ?? [];
  const steps: ScriptStep[] = [];
  if (replaced.length > 0) {
    const ids = idArrayLiteral(replaced);
    for (const t of TABLES) steps.push(`DELETE FROM records.${t} WHERE ${ID_COLUMN(t)} = ANY(${ids}::bigint[])`);
  }
  for (const t of TABLES) steps.push(copyStep(`records.${t}`, COLUMNS[t], chunks[t], COPY_FORMAT[t] === 'binary'));
  const written = [...binaryCopyFirstInt8s(chunks.properties), ...replaced];
  const settle = opts.ownerIds ? settleMergedOwnersStatement(written, opts.ownerIds) : null;
  if (settle) steps.push(settle);
  // The change feed row commits with the batch: the indexer sees the write exactly when lookups do.
  steps.push(...recordChangesStatements(written, 'write'), ...(opts.alsoWrite ?? []));
  return steps;
}

/**
 * Runs a bulk load into an empty records store with the secondary indexes dropped, then rebuilds them from the
 * definitions PostgreSQL itself held (so the migrations stay their only source). Building an index once is
 * cheaper than maintaining it row by row; measured here, 84 instead of 93 us a record. A store that already holds
 * records is loaded with its indexes in place, since lookups may be reading it.
 */
export async function withBulkLoadIndexes<T>(
  pool: Pool,
  load: () => Promise<T>,
  log: (l: string) => void = () => {},
): Promise<T> {
  const { rows: count } = await pool.query<{ n: number }>(
    'SELECT count(*) AS n FROM (SELECT 1 FROM records.properties LIMIT 1) x',
  );
  if (count[0]!.n > 0) return load();
  const { rows: indexes } = await pool.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes i
      WHERE schemaname = 'records' AND tablename IN ('properties', 'owners')
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  for (const ix of indexes) await pool.query(`DROP INDEX IF EXISTS records."${ix.name}"`);
  try {
    return await load();
  } finally {
    const started = performance.now();
    const client = await pool.connect();
    try {
      await client.query("SET maintenance_work_mem = '512MB'");
      for (const ix of indexes) await client.query(ix.def);
      // VACUUM as well as ANALYZE: it sets the visibility map of the freshly loaded pages, so that lookups read the
      // indexes alone where they can (an owner search by name and state is an index-only scan) instead of
      // visiting a heap page per match.
      await client.query('VACUUM (ANALYZE) records.properties');
      await client.query('VACUUM (ANALYZE) records.owners');
    } finally {
      client.release();
    }
    log(`rebuilt ${indexes.length} indexes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** records.tract_demographics' columns, in the order writeTracts' COPY lines give them. */
const TRACT_COLUMNS =
  'tract, vintage_year, source, median_age, median_gross_rent, median_home_value, median_household_income, ' +
  'owner_occupied_rate, poverty_rate, total_population, unemployment_rate, vacancy_rate';

/** Inserts or replaces tract vintages, then re-renders the current profile of every tract touched. */
export async function writeTracts(db: Db, tracts: readonly TractInput[]): Promise<void> {
  if (tracts.length === 0) return;
  await transaction(db, async (c) => {
    await c.query('CREATE TEMP TABLE tract_in (LIKE records.tract_demographics) ON COMMIT DROP');
    const text = tracts
      .map((t) =>
        copyLine([
          t.tract,
          t.vintageYear,
          t.source,
          t.medianAge,
          t.medianGrossRent,
          t.medianHomeValue,
          t.medianHouseholdIncome,
          t.ownerOccupiedRate,
          t.povertyRate,
          t.totalPopulation,
          t.unemploymentRate,
          t.vacancyRate,
        ]),
      )
      .join('');
    // As a batch's records are copied (write-script.ts), in this transaction.
    await runScript(c, [copyStep('tract_in', TRACT_COLUMNS, text, false)], { inOpenTransaction: true });
    await c.query(`INSERT INTO records.tract_demographics SELECT DISTINCT ON (tract, vintage_year) * FROM tract_in
      ON CONFLICT (tract, vintage_year) DO UPDATE SET source = EXCLUDED.source, median_age = EXCLUDED.median_age,
        median_gross_rent = EXCLUDED.median_gross_rent, median_home_value = EXCLUDED.median_home_value,
        median_household_income = EXCLUDED.median_household_income, owner_occupied_rate = EXCLUDED.owner_occupied_rate,
        poverty_rate = EXCLUDED.poverty_rate, total_population = EXCLUDED.total_population,
        unemployment_rate = EXCLUDED.unemployment_rate, vacancy_rate = EXCLUDED.vacancy_rate`);
    const { rows } = await c.query(
      `SELECT DISTINCT ON (tract) * FROM records.tract_demographics
        WHERE tract IN (SELECT tract FROM tract_in) ORDER BY tract, vintage_year DESC`,
    );
    const profiles = rows.map((r) => ({
      tract: r.tract as string,
      year: r.vintage_year as number,
      body: tractProfileBody({
        tract: r.tract,
        vintageYear: r.vintage_year,
        source: r.source,
        medianAge: r.median_age,
        medianGrossRent: r.median_gross_rent,
        medianHomeValue: r.median_home_value,
        medianHouseholdIncome: r.median_household_income,
        ownerOccupiedRate: r.owner_occupied_rate,
        povertyRate: r.poverty_rate,
        totalPopulation: r.total_population,
        unemploymentRate: r.unemployment_rate,
        vacancyRate: r.vacancy_rate,
      }),
    }));
    await c.query(
      `INSERT INTO records.tract_profiles (tract, vintage_year, body)
       SELECT * FROM unnest($1::text[], $2::int[], $3::text[])
       ON CONFLICT (tract) DO UPDATE SET vintage_year = EXCLUDED.vintage_year, body = EXCLUDED.body`,
      [profiles.map((p) => p.tract), profiles.map((p) => p.year), profiles.map((p) => p.body)],
    );
  });
}
