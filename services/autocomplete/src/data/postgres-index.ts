// The PostgreSQL SearchIndex: prefix range scans on the normalised line (text_pattern_ops btree), one small query
// per candidate prefix, merged in ranking order: the exact house number first, then the street, then locality.
import { decodeStoredJson, encodeStoredJson } from '@pra/core/stored';
import type { Pool, Queryable } from '@pra/platform';
import type { SearchFilters, SearchIndex, SuggestionDoc, Suggestions } from '../domain/search-index.js';
import type { TypedQuery } from '../domain/typed-query.js';

interface Row {
  property_id: number;
  line_key: string;
  unit_key: string;
  city_key: string;
  zip: string;
  house_number: string | null;
  /** The suggestion JSON in its stored form (@pra/core/stored). */
  doc: Buffer;
}

const likePrefix = (s: string) => `${s.replace(/[\\%_]/g, '\\$&')}%`;
const numeric = (n: string | null) => (n === null ? Number.MAX_SAFE_INTEGER : Number.parseInt(n, 10));

/** Ranking: exact number before longer numbers, then street, locality, ZIP, unit (4 before 10). */
function compare(num: string | null) {
  return (a: Row, b: Row) => {
    const exactA = num !== null && a.house_number === num ? 0 : 1;
    const exactB = num !== null && b.house_number === num ? 0 : 1;
    return (
      exactA - exactB ||
      numeric(a.house_number) - numeric(b.house_number) ||
      a.line_key.localeCompare(b.line_key) ||
      a.city_key.localeCompare(b.city_key) ||
      a.zip.localeCompare(b.zip) ||
      a.unit_key.length - b.unit_key.length ||
      a.unit_key.localeCompare(b.unit_key)
    );
  };
}

const COLUMNS = 'property_id, line_key, unit_key, city_key, zip, house_number, doc';

/**
 * The prefixes none of the others covers ("123 " is inside "123"). What is left matches disjoint sets of keys (two
 * strings share a key only when one is a prefix of the other), so their counts add up without counting a row twice.
 */
export function uncoveredPrefixes(prefixes: readonly string[]): string[] {
  const unique = [...new Set(prefixes)];
  return unique.filter((p) => !unique.some((other) => other !== p && p.startsWith(other)));
}

export class PostgresSearchIndex implements SearchIndex {
  readonly backend = 'postgres';
  constructor(
    private readonly pool: Pool,
    private readonly table = 'search.address_suggestions',
    /**
     * Where searches read: the replica of DATABASE_READ_URL (requestPathClients' `reads`) for the requests' index;
     * the pool by default. Writes (the indexer's instance, on a pool of its own) stay on the pool.
     */
    private readonly reads: Queryable = pool,
  ) {}

  /** One statement for all candidate prefixes: each part reads the first rows of its index range. */
  private async byLine(prefixes: readonly string[], f: SearchFilters): Promise<Row[]> {
    const values: unknown[] = [];
    const filters: string[] = [];
    if (f.zip) filters.push(`zip = $${values.push(f.zip)}`);
    if (f.state) filters.push(`state = $${values.push(f.state)}`);
    const limit = `$${values.push(f.limit * 4)}`;
    const parts = prefixes.map((p) => {
      const cond = [`line_key LIKE $${values.push(likePrefix(p))}`, ...filters].join(' AND ');
      return `(SELECT ${COLUMNS} FROM ${this.table} WHERE ${cond} ORDER BY line_key, unit_key LIMIT ${limit})`;
    });
    return (await this.reads.query<Row>(parts.join(' UNION ALL '), values)).rows;
  }

  /**
   * How many rows match any of `prefixes` on `column`, counted up to `cap`: each disjoint prefix reads at most `cap`
   * index entries (a LIMIT inside each part), so a short prefix in a dense index costs no more than a long one.
   */
  private async countMatching(
    column: 'line_key' | 'street_key',
    prefixes: readonly string[],
    f: { zip?: string; state?: string },
    cap: number,
  ): Promise<number> {
    const values: unknown[] = [cap];
    const filters: string[] = [];
    if (f.zip) filters.push(`zip = $${values.push(f.zip)}`);
    if (f.state) filters.push(`state = $${values.push(f.state)}`);
    const parts = uncoveredPrefixes(prefixes).map((p) => {
      const cond = [`${column} LIKE $${values.push(likePrefix(p))}`, ...filters].join(' AND ');
      return `(SELECT 1 FROM ${this.table} WHERE ${cond} LIMIT $1)`;
    });
    const { rows } = await this.reads.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (${parts.join(' UNION ALL ')}) matching`,
      values,
    );
    return Math.min(cap, rows[0]!.n);
  }

  private async byStreet(prefixes: readonly string[], zip: string, limit: number): Promise<Row[]> {
    const values: unknown[] = [zip, limit * 4];
    const parts = prefixes.map(
      (p) => `(SELECT ${COLUMNS} FROM ${this.table} WHERE zip = $1 AND street_key LIKE $${values.push(likePrefix(p))}
        ORDER BY street_key, house_number, unit_key LIMIT $2)`,
    );
    return (await this.reads.query<Row>(parts.join(' UNION ALL '), values)).rows;
  }

  async search(q: TypedQuery, f: SearchFilters, countCap: number): Promise<Suggestions> {
    let found: [Row[], number];
    if (q.houseNumber === null) {
      found = await Promise.all([
        this.byStreet(q.streetPrefixes, f.zip!, f.limit),
        this.countMatching('street_key', q.streetPrefixes, { zip: f.zip! }, countCap),
      ]);
    } else {
      const lines =
        q.streetPrefixes.length > 0
          ? q.streetPrefixes.map((p) => `${q.houseNumber} ${p}`)
          : q.numberComplete
            ? [`${q.houseNumber} `]
            : // Still typing the number: that exact number first, then longer numbers that start with it.
              [`${q.houseNumber} `, q.houseNumber];
      found = await Promise.all([this.byLine(lines, f), this.countMatching('line_key', lines, f, countCap)]);
    }
    const [rows, total] = found;
    const seen = new Set<number>();
    const docs = rows
      .sort(compare(q.houseNumber))
      .filter((r) => !seen.has(r.property_id) && seen.add(r.property_id))
      .slice(0, f.limit)
      .map((r) => decodeStoredJson(r.doc));
    return { docs, total: Math.max(total, docs.length) };
  }

  async upsert(docs: readonly SuggestionDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await this.pool.query(
      `INSERT INTO ${this.table} (property_id, house_number, line_key, street_key, unit_key, zip, state, city_key, doc)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bytea[])
       ON CONFLICT (property_id) DO UPDATE SET house_number = EXCLUDED.house_number, line_key = EXCLUDED.line_key,
         street_key = EXCLUDED.street_key, unit_key = EXCLUDED.unit_key, zip = EXCLUDED.zip, state = EXCLUDED.state,
         city_key = EXCLUDED.city_key, doc = EXCLUDED.doc, indexed_at = now()`,
      [
        docs.map((d) => d.propertyId),
        docs.map((d) => d.houseNumber),
        docs.map((d) => d.lineKey),
        docs.map((d) => d.streetKey),
        docs.map((d) => d.unitKey),
        docs.map((d) => d.zip),
        docs.map((d) => d.state),
        docs.map((d) => d.cityKey),
        docs.map((d) => encodeStoredJson(d.doc)),
      ],
    );
  }

  async remove(propertyIds: readonly number[]): Promise<void> {
    if (propertyIds.length > 0)
      await this.pool.query(`DELETE FROM ${this.table} WHERE property_id = ANY($1)`, [propertyIds]);
  }

  /** A full rebuild upserts everything and then drops what was not seen: readers always see a complete index. */
  async beginRebuild() {
    const started = (await this.pool.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
    return {
      write: (docs: readonly SuggestionDoc[]) => this.upsert(docs),
      finish: async () => {
        await this.pool.query(`DELETE FROM ${this.table} WHERE indexed_at < $1`, [started]);
      },
    };
  }
}
