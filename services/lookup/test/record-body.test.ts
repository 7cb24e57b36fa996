// What the lookup reads of a stored record's body without parsing all of it (domain/record-body.ts): its identifier,
// parsed alone from the body's start, is the identifier the whole body holds, whatever its APN holds (a brace, a
// quote, a backslash); and its id.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { identifierOf, recordId } from '../src/domain/record-body.js';

describe("a record body's identifier", () => {
  it('is the one the whole body holds, whatever the APN holds', () => {
    fc.assert(
      fc.property(
        fc.record({
          Id: fc.integer({ min: 1, max: 2 ** 40 }),
          apn: fc.oneof(fc.string(), fc.constantFrom('2-11', '{x}', 'a}b', '"}', '\\}', '')),
          apnOrig: fc.string(),
          fips: fc.constantFrom('33009', '42101'),
          parcelId: fc.integer({ min: 1, max: 2 ** 40 }),
        }),
        (identifier) => {
          const body = JSON.stringify({ identifier, address: { line1: '1 MAIN ST' }, owner: { owner1: null } });
          expect(identifierOf(body)).toEqual(identifier);
          expect(recordId(body)).toBe(identifier.Id);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
