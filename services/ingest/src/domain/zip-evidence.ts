// The ZIP of a parcel whose roll gives none, from evidence only (issue 36): the ZIPs the county's other parcels on
// the same street segment were found to have (their owner is mailed at the parcel, in a ZIP of the county). The
// segment around a house number is bounded by the nearest evidenced parcels below and above it on the same side of
// the street (odd or even numbers, which a ZIP boundary down the street's middle separates); both must name one ZIP.
// At a street's end, where only one side has evidence, every evidenced parcel of that side must name it. Otherwise
// there is no ZIP: never a guess.

/** One evidenced parcel: its street (the line key without the house number), house number and ZIP5. */
export type ZipEvidenceEntry = [street: string, houseNumber: number, zip: string];

export class ZipEvidence {
  /** By street and side (0 even, 1 odd): house numbers ascending, with their ZIP. */
  private readonly sides = new Map<string, { numbers: number[]; zips: string[] }>();

  constructor(entries: readonly ZipEvidenceEntry[]) {
    const grouped = new Map<string, [number, string][]>();
    for (const [street, n, zip] of entries) {
      const key = `${street}|${n % 2}`;
      const g = grouped.get(key) ?? [];
      if (g.length === 0) grouped.set(key, g);
      g.push([n, zip]);
    }
    for (const [key, g] of grouped) {
      g.sort((a, b) => a[0] - b[0]);
      this.sides.set(key, { numbers: g.map((x) => x[0]), zips: g.map((x) => x[1]) });
    }
  }

  /** The ZIP the parcels around `houseNumber` on `street` share, or null when they do not (or there are none). */
  zipOf(street: string, houseNumber: number): string | null {
    const side = this.sides.get(`${street}|${houseNumber % 2}`);
    if (!side) return null;
    const { numbers, zips } = side;
    // The first evidenced number at or above houseNumber.
    let lo = 0;
    let hi = numbers.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (numbers[mid]! < houseNumber) lo = mid + 1;
      else hi = mid;
    }
    // At the number itself (another unit of the building): every entry at that number must agree.
    if (numbers[lo] === houseNumber) {
      let end = lo;
      while (numbers[end + 1] === houseNumber) end++;
      const zip = zips[lo]!;
      for (let i = lo; i <= end; i++) if (zips[i] !== zip) return null;
      return zip;
    }
    const below = lo > 0 ? zips[lo - 1]! : null;
    const above = lo < numbers.length ? zips[lo]! : null;
    if (below !== null && above !== null) return below === above ? below : null;
    // One side only: the street's end; the whole side must agree.
    const zip = below ?? above!;
    return zips.every((z) => z === zip) ? zip : null;
  }
}
