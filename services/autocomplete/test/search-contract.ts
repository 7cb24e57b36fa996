// One contract for every SearchIndex adapter: what a type-ahead must do, whatever engine is behind it.
import { describe, expect, it } from 'vitest';
import type { SearchIndex, SuggestionDoc } from '../src/domain/search-index.js';
import { parseTypedQuery } from '../src/domain/typed-query.js';

export function doc(
  id: number,
  line1: string,
  opts: { unit?: string; zip?: string; state?: string; city?: string } = {},
): SuggestionDoc {
  const [num, ...street] = line1.split(' ');
  const unit = opts.unit ?? '';
  const city = opts.city ?? 'SPRINGFIELD';
  const zip = opts.zip ?? '62701';
  const state = opts.state ?? 'IL';
  const line2 = unit ? `APT ${unit}` : '';
  return {
    propertyId: id,
    houseNumber: num!,
    lineKey: line1,
    streetKey: street.join(' '),
    unitKey: unit,
    zip,
    state,
    cityKey: city,
    doc: JSON.stringify({
      identifier: { Id: id },
      address: {
        line1,
        line2,
        locality: city,
        countrySubd: state,
        postal1: zip,
        oneLine: `${line1}${line2 ? ` ${line2}` : ''}, ${city}, ${state} ${zip}`,
      },
    }),
  };
}

const ids = (docs: string[]) => docs.map((d) => JSON.parse(d).identifier.Id as number);

/** `base` keeps each run's ids and streets apart from other data in the index. */
export function searchIndexContract(name: string, make: () => Promise<SearchIndex>, base: number, street: string) {
  describe(`SearchIndex contract: ${name}`, () => {
    const S = street; // a street name unique to this run, e.g. "QZXMAPLE"
    const docs = [
      doc(base + 1, `123 N ${S} ST`, { unit: '4' }),
      doc(base + 2, `123 N ${S} ST`, { unit: '10' }),
      doc(base + 3, `1234 N ${S} ST`),
      doc(base + 4, `123 ${S} AVE`, { zip: '62702' }),
      doc(base + 5, `77 ${S} RD`, { zip: '90001', state: 'CA', city: 'LOS ANGELES' }),
      doc(base + 6, `123 N ${S} ST`, { zip: '90001', state: 'CA', city: 'LOS ANGELES' }),
    ];
    const search = async (idx: SearchIndex, q: string, f: { zip?: string; state?: string; limit?: number } = {}) =>
      ids((await idx.search(parseTypedQuery(q), { limit: f.limit ?? 8, zip: f.zip, state: f.state }, 100)).docs);
    const total = async (idx: SearchIndex, q: string, f: { zip?: string; limit?: number } = {}, cap = 100) =>
      (await idx.search(parseTypedQuery(q), { limit: f.limit ?? 8, zip: f.zip }, cap)).total;

    it('narrows as an address is typed, unit-level, exact house number first', async () => {
      const idx = await make();
      await idx.upsert(docs);
      // Exact number, then street, then locality (alphabetical: LOS ANGELES before SPRINGFIELD), then unit.
      expect(await search(idx, `123 n ${S.slice(0, 3).toLowerCase()}`)).toEqual([base + 6, base + 1, base + 2]);
      expect(await search(idx, `123 North ${S} Street`)).toEqual([base + 6, base + 1, base + 2]);
      expect(await search(idx, `123 N ${S} ST`, { zip: '62701' })).toEqual([base + 1, base + 2]);
      expect(await search(idx, `123 N ${S} ST`, { state: 'CA' })).toEqual([base + 6]);
      expect(await search(idx, `1234 n ${S}`)).toEqual([base + 3]);
      expect((await search(idx, `123 ${S}`)).slice(0, 1)).toEqual([base + 4]);
    });

    it('spelled-out and abbreviated words suggest the same, and a half-typed suffix finds its abbreviation', async () => {
      const idx = await make();
      await idx.upsert(docs);
      const a = await search(idx, `123 north ${S} street`);
      const b = await search(idx, `123 N ${S} ST`);
      expect(a).toEqual(b);
      expect(await search(idx, `123 N ${S} stre`)).toEqual(b);
      expect(await search(idx, `77 ${S} roa`, { state: 'CA' })).toEqual([base + 5]);
    });

    it('counts every matching suggestion in total (each property once), not only those returned, up to the cap', async () => {
      const idx = await make();
      await idx.upsert(docs);
      // 123 N <S> ST: three properties (two units in 62701, one in 90001), whatever the limit.
      expect(await total(idx, `123 N ${S} ST`, { limit: 1 })).toBe(3);
      expect(await total(idx, `123 N ${S} ST`)).toBe(3);
      expect(await total(idx, `123 n ${S}`)).toBe(3);
      // A half-typed suffix reads as several prefixes ("stre", ST): a property they both match counts once.
      expect(await total(idx, `123 N ${S} stre`)).toBe(3);
      expect(await total(idx, `n ${S}`, { zip: '62701', limit: 1 })).toBe(3);
      expect(await total(idx, `999 ${S}`)).toBe(0);
      // Past the cap: the cap (that many or more).
      expect(await total(idx, `123 N ${S} ST`, { limit: 1 }, 2)).toBe(2);
      const many = Array.from({ length: 30 }, (_, i) => doc(base + 20 + i, `55 ${S} WAY`, { unit: String(i + 1) }));
      await idx.upsert(many);
      expect(await total(idx, `55 ${S}`, { limit: 3 })).toBe(30);
      expect(await total(idx, `55 ${S}`, { limit: 3 }, 25)).toBe(25);
      expect(await total(idx, `5 ${S}`, { limit: 3 }, 25)).toBe(0);
    });

    it('searches street names within a ZIP, respects the limit, and replaces on upsert and drops on remove', async () => {
      const idx = await make();
      await idx.upsert(docs);
      expect(await search(idx, `n ${S}`, { zip: '62701' })).toEqual([base + 1, base + 2, base + 3]);
      expect(await search(idx, `123 N ${S} ST`, { limit: 1 })).toEqual([base + 6]);
      await idx.upsert([doc(base + 5, `78 ${S} RD`, { zip: '90001', state: 'CA', city: 'LOS ANGELES' })]);
      expect(await search(idx, `77 ${S}`, { state: 'CA' })).toEqual([]);
      expect(await search(idx, `78 ${S}`, { state: 'CA' })).toEqual([base + 5]);
      await idx.remove([base + 5]);
      expect(await search(idx, `78 ${S}`, { state: 'CA' })).toEqual([]);
    });
  });
}
