// The parcel id of records rendered before the registry (records.parcels): a 48-bit hash of the county and the
// stripped APN. Kept for the tests that show it was not collision-free, and for the search that found their pair:
//   npx tsx services/ingest/test/old-parcel-id.ts 06067
import { apnKey } from '@pra/core/address';

export function oldParcelIdOf(fips: string, apn: string): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  const s = `${fips}:${apnKey(apn)}`;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619) >>> 0;
    h2 = Math.imul(h2 ^ c, 2246822519) >>> 0;
  }
  return (h1 % 0x10000) * 0x100000000 + h2;
}

/** The APN tried i-th by the search. */
export const candidateApn = (i: number) => `C${i.toString(36).toUpperCase()}`;

/**
 * A birthday search for two APNs of one county with one old parcel id: about 2^24 tries, in an open-addressing
 * table of typed arrays (a Map holds at most 2^24 entries).
 */
export function findCollision(fips: string, maxTries = 60_000_000): [string, string] | null {
  const bits = 26;
  const mask = (1 << bits) - 1;
  const ids = new Float64Array(1 << bits).fill(-1);
  const tries = new Uint32Array(1 << bits);
  for (let i = 0; i < maxTries; i++) {
    const id = oldParcelIdOf(fips, candidateApn(i));
    let slot = (id % 0x100000000) & mask;
    while (ids[slot] !== -1) {
      if (ids[slot] === id) return [candidateApn(tries[slot]!), candidateApn(i)];
      slot = (slot + 1) & mask;
    }
    ids[slot] = id;
    tries[slot] = i;
  }
  return null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  console.log(findCollision(process.argv[2] ?? '06067'), `${((performance.now() - started) / 1000).toFixed(1)} s`);
}
