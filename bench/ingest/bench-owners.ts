// npm run bench:owners [-- --count 1000000 --batch 10000 --keep --pairs-only]
// Owner entities (issue 37), three figures:
// 1. The grouping measured against the labelled pairs of real owner mentions (services/ingest/test/owners/
//    labelled-pairs.csv, how they were labelled in its README): precision and recall of "same owner", with the
//    targets (precision >= 99.5%, recall >= 95%). A pair is grouped when the resolver's rules give both mentions one
//    key and compatible middle initials (owner-keys.ts, pickByMiddle), as a first load of the two records would.
// 2. A county load (Lebanon, NH, the shipped mapping) into a fresh database: the import's time, then the owner
//    resolution of its records alone (the registry emptied and every mention resolved again, in the importer's batch
//    size), with its share of the load.
// 3. `count` synthetic records (the generator, seed 1) resolved in batches of `batch` into an empty registry: time and
//    microseconds a record, with the ratio to registering the same batches' parcels (records.register_parcels, the
//    registry step every load already runs) in the same run.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { migrateRecords } from '../../services/ingest/src/data/migrate.js';
import { COUNTY_ROLLS, importCsv, loadMapping } from '../../services/ingest/src/importer/index.js';
import { ownerMentionKey, recordMentions } from '../../services/ingest/src/domain/owner-keys.js';
import { pickByMiddle, resolveOwners } from '../../services/ingest/src/data/owner-registry.js';
import { parcelRefOf, registerParcels } from '../../services/ingest/src/data/parcels.js';
import { PropertyGenerator } from '../../services/ingest/src/generator/generate.js';
import { recordsOf } from '../../services/ingest/test/stored-records.js';
import { useLocalStack } from '@pra/platform/local-stack';

// The PostgreSQL npm start ran with (.data/local-stack.json), unless DATABASE_URL says otherwise.
useLocalStack('bench:owners');

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '1000000' },
    batch: { type: 'string', default: '10000' },
    keep: { type: 'boolean', default: false },
    'pairs-only': { type: 'boolean', default: false },
  },
});
const count = Number(args.count);
const batch = Number(args.batch);
const seconds = (t: number) => (performance.now() - t) / 1000;
const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

type Row = Record<string, string>;

/** A labelled mention as the CSV writes it (a_ or b_ columns). */
function mention(r: Row, side: 'a' | 'b') {
  const v = (k: string) => r[`${side}_${k}`] ?? '';
  const owner = {
    fullName: v('full_name'),
    firstName: v('first_name') || null,
    lastName: v('last_name') || null,
    type: v('type'),
  };
  const mailing = v('mail_line1')
    ? { line1: v('mail_line1'), city: v('mail_city'), state: v('mail_state'), zip: v('mail_zip') }
    : null;
  // A record of its own per parcel (the key of a person without a mailing address is their record's).
  const record = Number.parseInt(v('apn').replace(/\D/g, '').slice(-9) || '0', 10) * 2 + (side === 'a' ? 0 : 1);
  return ownerMentionKey(owner, { state: v('state'), mailing }, record);
}

function measurePairs(): void {
  const file = join(import.meta.dirname, '../test/owners/labelled-pairs.csv');
  const all = parse(readFileSync(file), { columns: true, skip_empty_lines: true }) as Row[];
  // Pairs the files give no evidence for either way are kept in the set, labelled unsure, and not scored.
  const rows = all.filter((r) => r.label !== 'unsure');
  const cells = { tp: 0, fp: 0, fn: 0, tn: 0 };
  const wrong: string[] = [];
  const byCase = new Map<string, { n: number; right: number }>();
  for (const r of rows) {
    const a = mention(r, 'a');
    const b = mention(r, 'b');
    const grouped =
      a !== null &&
      b !== null &&
      a.key === b.key &&
      pickByMiddle([{ middle: a.middle, ownerId: 1 }], b.middle) !== undefined &&
      pickByMiddle([{ middle: b.middle, ownerId: 1 }], a.middle) !== undefined;
    const same = r.label === 'same';
    if (same && grouped) cells.tp++;
    else if (!same && grouped) cells.fp++;
    else if (same && !grouped) cells.fn++;
    else cells.tn++;
    if (same !== grouped)
      wrong.push(`  ${r.pair}: ${r.label}, grouped=${grouped}: ${r.a_full_name} | ${r.b_full_name}`);
    const c = byCase.get(r.case!) ?? { n: 0, right: 0 };
    c.n++;
    if (same === grouped) c.right++;
    byCase.set(r.case!, c);
  }
  const precision = cells.tp / (cells.tp + cells.fp);
  const recall = cells.tp / (cells.tp + cells.fn);
  console.log(
    `labelled pairs: ${rows.length} scored (${cells.tp + cells.fn} same owner, ${cells.fp + cells.tn} not), ` +
      `${all.length - rows.length} unsure (not scored)`,
  );
  console.log(`  precision ${pct(precision)} (target >= 99.5%)  recall ${pct(recall)} (target >= 95%)`);
  console.log(`  tp ${cells.tp}  fp ${cells.fp}  fn ${cells.fn}  tn ${cells.tn}`);
  for (const [c, { n, right }] of [...byCase].sort()) console.log(`  ${c.padEnd(32)} ${right}/${n} as labelled`);
  if (wrong.length > 0) console.log(`  grouped otherwise than labelled:\n${wrong.join('\n')}`);
}

async function emptyRegistry(pool: Pool): Promise<void> {
  await pool.query(
    'TRUNCATE records.owner_entities, records.owner_keys, records.owner_redirects, records.owner_mentions',
  );
}

async function measureCounty(pool: Pool): Promise<void> {
  const started = performance.now();
  for (const { mapping, file } of COUNTY_ROLLS.lebanon) await importCsv(pool, loadMapping(mapping), file);
  const load = seconds(started);
  const records = await recordsOf(pool, 'import:lebanon-nh');
  const items = records.map((r) => ({
    state: r.address.countrySubd as string,
    mailing: r.owner.mailingAddress.line1
      ? {
          line1: r.owner.mailingAddress.line1 as string,
          city: (r.owner.mailingAddress.locality ?? '') as string,
          state: (r.owner.mailingAddress.countrySubd ?? '') as string,
          zip: (r.owner.mailingAddress.postal1 ?? '') as string,
        }
      : null,
    owner1: r.owner.owner1.fullName ? r.owner.owner1 : null,
    owner2: r.owner.owner2,
    owner3: r.owner.owner3 ?? null,
    owner4: r.owner.owner4 ?? null,
  }));
  await emptyRegistry(pool);
  const t = performance.now();
  let owners = 0;
  for (let i = 0; i < items.length; i += 2_000) {
    const ids = records.slice(i, i + 2_000).map((r) => r.id as number);
    const resolved = await resolveOwners(pool, recordMentions(ids, items.slice(i, i + 2_000)));
    owners += resolved.filter((x) => x !== null).length;
  }
  const resolve = seconds(t);
  console.log(
    `county load (Lebanon NH, ${records.length} records, ${owners} owner mentions): import ${load.toFixed(1)} s; ` +
      `owner resolution alone ${resolve.toFixed(2)} s (${pct(resolve / load)} of the load, ` +
      `${((resolve / records.length) * 1e6).toFixed(0)} us a record)`,
  );
}

async function measureSynthetic(pool: Pool): Promise<void> {
  await emptyRegistry(pool);
  const generator = new PropertyGenerator({ seed: 1 });
  let resolveSeconds = 0;
  let parcelSeconds = 0;
  let mentions = 0;
  for (let done = 0; done < count; done += batch) {
    const n = Math.min(batch, count - done);
    const items = Array.from({ length: n }, () => generator.next());
    const m = recordMentions(1_000_000_000 + done, items);
    mentions += m.filter((x) => x !== null).length;
    let t = performance.now();
    await registerParcels(pool, items.map(parcelRefOf));
    parcelSeconds += seconds(t);
    t = performance.now();
    await resolveOwners(pool, m);
    resolveSeconds += seconds(t);
  }
  const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM records.owner_entities');
  console.log(
    `synthetic: ${count.toLocaleString('en-US')} records, ${mentions.toLocaleString('en-US')} mentions, ` +
      `${Number(rows[0]!.n).toLocaleString('en-US')} owners, batches of ${batch}: resolution ${resolveSeconds.toFixed(1)} s ` +
      `(${((resolveSeconds / count) * 1e6).toFixed(1)} us a record); parcel registration of the same batches ` +
      `${parcelSeconds.toFixed(1)} s; ratio ${(resolveSeconds / parcelSeconds).toFixed(2)}x`,
  );
}

measurePairs();
if (args['pairs-only']) process.exit(0);
const url = withDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, `pra_bench_owners_${process.pid}`);
await ensureDatabase(url);
const pool = createPool(url, 4, 'bench-owners');
try {
  await migrateRecords(pool);
  await measureCounty(pool);
  await measureSynthetic(pool);
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (2 cores shared with other work)`,
  );
} finally {
  await pool.end();
  if (!args.keep) await dropDatabase(url);
}
