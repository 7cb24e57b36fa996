// The Typesense SearchIndex (production): a collection behind an alias, so a full re-index builds a new collection
// and swaps the alias without downtime. Bulk writes are JSONL imports with action=upsert, every result line checked.
// The house number is a filter (exact once typed, prefix while typing), never typo-matched; the last word of the
// street is a prefix; street words allow one typo.
import { randomBytes } from 'node:crypto';
import Typesense from 'typesense';
import type { SearchFilters, SearchIndex, SuggestionDoc, Suggestions } from '../domain/search-index.js';
import type { TypedQuery } from '../domain/typed-query.js';

type Client = InstanceType<typeof Typesense.Client>;

interface TsDoc {
  id: string;
  property_id: number;
  house_number: string;
  house_number_int: number;
  line_key: string;
  street_key: string;
  unit_key: string;
  unit_len: number;
  zip: string;
  state: string;
  city_key: string;
  doc: string;
}

export function collectionSchema(name: string) {
  return {
    name,
    fields: [
      { name: 'property_id', type: 'int64' as const },
      { name: 'house_number', type: 'string' as const },
      { name: 'house_number_int', type: 'int32' as const },
      { name: 'line_key', type: 'string' as const, sort: true },
      { name: 'street_key', type: 'string' as const },
      { name: 'unit_key', type: 'string' as const, sort: true },
      { name: 'unit_len', type: 'int32' as const },
      { name: 'zip', type: 'string' as const, facet: true },
      { name: 'state', type: 'string' as const, facet: true },
      { name: 'city_key', type: 'string' as const, sort: true },
      { name: 'doc', type: 'string' as const, index: false, optional: true },
    ],
    default_sorting_field: 'house_number_int',
  };
}

function toTs(d: SuggestionDoc): TsDoc {
  return {
    id: String(d.propertyId),
    property_id: d.propertyId,
    house_number: d.houseNumber ?? '',
    house_number_int: Number.parseInt(d.houseNumber ?? '', 10) || 0,
    line_key: d.lineKey,
    street_key: d.streetKey,
    unit_key: d.unitKey,
    unit_len: d.unitKey.length,
    zip: d.zip,
    state: d.state,
    city_key: d.cityKey,
    doc: d.doc,
  };
}

const quote = (s: string) => `\`${s.replace(/`/g, '')}\``;

export class TypesenseSearchIndex implements SearchIndex {
  readonly backend = 'typesense';
  constructor(
    private readonly client: Client,
    private readonly alias: string,
  ) {}

  static connect(url: string, apiKey: string, alias = 'addresses'): TypesenseSearchIndex {
    const u = new URL(url);
    const client = new Typesense.Client({
      nodes: [
        {
          host: u.hostname,
          port: Number(u.port || (u.protocol === 'https:' ? 443 : 8108)),
          protocol: u.protocol.replace(':', ''),
        },
      ],
      apiKey,
      connectionTimeoutSeconds: 5,
    });
    return new TypesenseSearchIndex(client, alias);
  }

  /** A fresh alias and collection, for one contract-test run. */
  static async forTests(url: string, apiKey: string): Promise<TypesenseSearchIndex> {
    const index = TypesenseSearchIndex.connect(url, apiKey, `addresses_test_${randomBytes(4).toString('hex')}`);
    await index.ensureCollection();
    return index;
  }

  /** Creates the first collection and points the alias at it, if the alias does not exist yet. */
  async ensureCollection(): Promise<void> {
    try {
      await this.client.aliases(this.alias).retrieve();
    } catch {
      const name = `${this.alias}_${Date.now()}`;
      await this.client.collections().create(collectionSchema(name));
      await this.client.aliases().upsert(this.alias, { collection_name: name });
    }
  }

  private async importInto(collection: string, docs: readonly SuggestionDoc[]): Promise<void> {
    if (docs.length === 0) return;
    let results: { success: boolean; error?: string; id?: string }[];
    try {
      results = await this.client
        .collections<TsDoc>(collection)
        .documents()
        .import(docs.map(toTs), { action: 'upsert' });
    } catch (err) {
      // The client throws ImportError when a line fails; its results say which.
      results = (err as { importResults?: typeof results }).importResults ?? [];
      if (results.length === 0) throw err;
    }
    const failed = results.filter((r) => !r.success);
    if (failed.length > 0) {
      throw new Error(
        `Typesense import: ${failed.length} of ${docs.length} documents failed, first: ${failed[0]!.error ?? 'unknown error'}`,
      );
    }
  }

  upsert(docs: readonly SuggestionDoc[]): Promise<void> {
    return this.importInto(this.alias, docs);
  }

  async remove(propertyIds: readonly number[]): Promise<void> {
    if (propertyIds.length === 0) return;
    await this.client
      .collections(this.alias)
      .documents()
      .delete({ filter_by: `property_id:[${propertyIds.join(',')}]` });
  }

  async beginRebuild() {
    const name = `${this.alias}_${Date.now()}`;
    await this.client.collections().create(collectionSchema(name));
    return {
      write: (docs: readonly SuggestionDoc[]) => this.importInto(name, docs),
      finish: async () => {
        let previous: string | undefined;
        try {
          previous = (await this.client.aliases(this.alias).retrieve()).collection_name;
        } catch {
          previous = undefined;
        }
        await this.client.aliases().upsert(this.alias, { collection_name: name });
        if (previous && previous !== name) await this.client.collections(previous).delete();
      },
    };
  }

  private async searchOne(
    q: string,
    queryBy: string,
    filters: string[],
    perPage: number,
    fields?: string,
  ): Promise<{ hits: TsDoc[]; found: number }> {
    const result = await this.client
      .collections<TsDoc>(this.alias)
      .documents()
      .search({
        q: q === '' ? '*' : q,
        query_by: queryBy,
        filter_by: filters.join(' && ') || undefined,
        prefix: true,
        num_typos: 1,
        typo_tokens_threshold: 1,
        drop_tokens_threshold: 0,
        sort_by: '_text_match:desc,house_number_int:asc,line_key:asc,unit_len:asc',
        per_page: perPage,
        ...(fields ? { include_fields: fields } : {}),
      });
    return { hits: (result.hits ?? []).map((h) => h.document), found: result.found ?? 0 };
  }

  async search(q: TypedQuery, f: SearchFilters, countCap: number): Promise<Suggestions> {
    const filters: string[] = [];
    if (f.zip) filters.push(`zip:=${quote(f.zip)}`);
    if (f.state) filters.push(`state:=${quote(f.state)}`);
    // Each search: its query text, the field it reads and its filters (again for the count when needed).
    let asked: [string, string[]][];
    if (q.houseNumber === null) {
      asked = q.streetPrefixes.map((p) => [p, filters]);
    } else {
      const exact = [...filters, `house_number:=${quote(q.houseNumber)}`];
      const prefixes = q.streetPrefixes.length > 0 ? q.streetPrefixes : [''];
      asked = prefixes.map((p) => [p, exact]);
      if (!q.numberComplete) asked.push(['*', [...filters, `house_number:${q.houseNumber}*`]]);
    }
    const batches = await Promise.all(asked.map(([text, fs]) => this.searchOne(text, 'street_key', fs, f.limit * 4)));
    const exactNumber = (d: TsDoc) => (q.houseNumber !== null && d.house_number === q.houseNumber ? 0 : 1);
    const seen = new Set<number>();
    const docs = batches
      .flatMap((b) => b.hits)
      .sort(
        (a, b) =>
          exactNumber(a) - exactNumber(b) ||
          a.house_number_int - b.house_number_int ||
          a.line_key.localeCompare(b.line_key) ||
          a.city_key.localeCompare(b.city_key) ||
          a.zip.localeCompare(b.zip) ||
          a.unit_len - b.unit_len ||
          a.unit_key.localeCompare(b.unit_key),
      )
      .filter((d) => !seen.has(d.property_id) && seen.add(d.property_id))
      .slice(0, f.limit)
      .map((d) => d.doc);
    const total = await this.countMatching(asked, batches, countCap);
    return { docs, total: Math.max(total, docs.length) };
  }

  /**
   * The properties matching any of the searches, each once, counted up to `cap`. One search: its `found`. Several
   * (their matches may overlap): the ids they returned, and for a search that found more than it returned, its
   * first `cap` ids (ids only): a search that alone finds `cap` or more makes the count `cap`, and otherwise every
   * match of every search is in hand.
   */
  private async countMatching(
    asked: [string, string[]][],
    batches: { hits: TsDoc[]; found: number }[],
    cap: number,
  ): Promise<number> {
    if (batches.length === 1) return Math.min(cap, batches[0]!.found);
    const ids = new Set<number>();
    const more = await Promise.all(
      batches.map(async (b, i) => {
        if (b.found <= b.hits.length) return b.hits;
        const [text, fs] = asked[i]!;
        // Typesense pages hold at most 250 hits.
        return (await this.searchOne(text, 'street_key', fs, Math.min(cap, 250), 'property_id')).hits;
      }),
    );
    for (const hits of more) for (const h of hits) ids.add(h.property_id);
    return Math.min(cap, ids.size);
  }
}
