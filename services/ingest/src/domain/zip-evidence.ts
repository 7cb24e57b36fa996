// The ZIP of a parcel whose roll gives none, from evidence only (issue 36): the ZIPs the county's other parcels on
// the same street segment were found to have (their owner is mailed at the parcel, in a ZIP of the county). The
// segment around a house number is bounded by the nearest evidenced parcels below and above it on the same side of
// the street (odd or even numbers, which a ZIP boundary down the street's middle separates); both must name one ZIP.
// At a street's end, where only one side has evidence, every evidenced parcel of that side must name it. Otherwise
// there is no ZIP: never a guess. A lone house number whose owners name another ZIP than the evidenced numbers on
// both sides of it, which agree (a mistyped mailing ZIP, or one of the next town's post office: 75 of Charlottesville's
// parcels and 17 of Lebanon's), is no evidence for its neighbours: left in, it made the segments on both sides of it
// two ZIPs, and theirs none (343 parcels of the two rolls). It keeps its own owner's ZIP (import-row.ts sitePlace).

/** One evidenced parcel: its street (the line key without the house number), house number and ZIP5. */
export type ZipEvidenceEntry = [street: string, houseNumber: number, zip: string];

export class ZipEvidence {
  /** By street and side (0 even, 1 odd): house numbers ascending, with their ZIP. */
  private readonly sides = new Map<string, { numbers: number[]; zips: string[] }>();
  /** The lone outliers left out of `sides`, by street and side: house number to the ZIP its owners name. */
  private readonly outliers = new Map<string, Map<number, string>>();

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
      const { kept, lone } = withoutLoneOutliers(g);
      this.sides.set(key, { numbers: kept.map((x) => x[0]), zips: kept.map((x) => x[1]) });
      if (lone.size > 0) this.outliers.set(key, lone);
    }
  }

  /** The ZIP the parcels around `houseNumber` on `street` share, or null when they do not (or there are none). */
  zipOf(street: string, houseNumber: number): string | null {
    // Another unit at a lone outlier's number: the ZIP its owners name (one building, one ZIP).
    const outlier = this.outliers.get(`${street}|${houseNumber % 2}`)?.get(houseNumber);
    if (outlier !== undefined) return outlier;
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

/**
 * A side's evidence (house numbers ascending) without its lone outliers: a house number all of whose entries name one
 * ZIP, between two evidenced numbers that each name one other ZIP, the same, and are no such outliers themselves (on
 * a side alternating A B A B A no number is: the segments between them stay without a ZIP). Two outliers in a row are
 * a boundary, and stay. `lone`: the numbers left out, with their ZIP.
 */
function withoutLoneOutliers(side: readonly [number, string][]): {
  kept: [number, string][];
  lone: Map<number, string>;
} {
  // The side's house numbers, each with the ZIP all its entries name (null when they disagree).
  const numbers: { n: number; zip: string | null; entries: [number, string][] }[] = [];
  for (const e of side) {
    const last = numbers[numbers.length - 1];
    if (last && last.n === e[0]) {
      if (last.zip !== e[1]) last.zip = null;
      last.entries.push(e);
    } else numbers.push({ n: e[0], zip: e[1], entries: [e] });
  }
  const sandwiched = numbers.map((x, i) => {
    const before = numbers[i - 1]?.zip;
    return x.zip !== null && before != null && before === numbers[i + 1]?.zip && before !== x.zip;
  });
  const kept: [number, string][] = [];
  const lone = new Map<number, string>();
  numbers.forEach((x, i) => {
    if (sandwiched[i] && !sandwiched[i - 1] && !sandwiched[i + 1]) lone.set(x.n, x.zip!);
    else kept.push(...x.entries);
  });
  return { kept, lone };
}
