// A record parsed for some of its cells (the import's reader wants only those that tell a row's parcel, a worker only
// those its mapping reads): the same verdict as parsing it whole (the same cells count, the same error), the wanted
// cells the same, the others empty.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRecord } from '../src/importer/csv-records.js';

/** A cell as a file may hold it: plain, quoted (with doubled quotes, delimiters, spaces after), or malformed. */
const cell = fc.oneof(
  fc.string({ maxLength: 6 }).map((s) => s.replace(/[",\n]/g, '')),
  fc.string({ maxLength: 6 }).map((s) => `"${s.replace(/"/g, '""')}"`),
  fc.string({ maxLength: 6 }).map((s) => `"${s.replace(/"/g, '""')}"  `),
  fc.constantFrom('"open', 'a"b', '"x"y', '""', '"a,b"', '"say ""hi"""'),
);

describe('a record parsed for some of its cells', () => {
  it('has the verdict of the whole record, its wanted cells, and the others empty', () => {
    fc.assert(
      fc.property(
        fc.array(cell, { minLength: 1, maxLength: 12 }),
        fc.array(fc.boolean(), { maxLength: 14 }),
        (cells, wanted) => {
          const text = cells.join(',');
          const whole = parseRecord(text, ',');
          const some = parseRecord(text, ',', wanted);
          if ('error' in whole) {
            expect(some).toEqual(whole);
            return;
          }
          expect('fields' in some).toBe(true);
          if (!('fields' in some)) return;
          expect(some.fields.length).toBe(whole.fields.length);
          for (const [i, f] of whole.fields.entries()) expect(some.fields[i]).toBe(wanted[i] === true ? f : '');
        },
      ),
      { numRuns: 2000 },
    );
  });
});
