// Numbers in the messages a client reads, as English writes them: counts grouped ("1,075"), one of a thing singular
// ("1 record"), decimals as typed (0.000001, never 1e-6), never a float's noise (2.4999999999999997e+24). Every
// message built from a number goes through here, so wording.test.ts covers them all.

/** A whole number with its thousands grouped: 1075 -> "1,075". */
export const count = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

/** A count and its noun, singular for one: (1, 'record') -> "1 record", (1075, 'property', 'properties') -> "1,075 properties". */
export const counted = (n: number, one: string, many = `${one}s`): string => `${count(n)} ${n === 1 ? one : many}`;

/** A decimal as written, without exponent or grouping: 1e-7 -> "0.0000001", -73.5 -> "-73.5" (15 digits at most). */
export const decimal = (n: number): string =>
  n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 15 });

/** Miles, to `digits` decimals at most (as given by default): 0.25 -> "0.25 miles", (24855.44, 1) -> "24,855.4 miles", 1 -> "1 mile". */
export const miles = (n: number, digits = 15): string =>
  `${n.toLocaleString('en-US', { maximumFractionDigits: digits })} ${n === 1 ? 'mile' : 'miles'}`;

/** A size in bytes, in KB when it is whole kilobytes: 262144 -> "256 KB". */
export const bytes = (n: number): string => (n % 1024 === 0 ? `${count(n / 1024)} KB` : counted(n, 'byte'));

/**
 * The 404 of a page past the end: how many pages there are, and why. `capped`: the search counts no further than
 * `total` (pages reach no deeper).
 */
export function pastLastPage(o: { page: number; pagesize: number; total: number; capped?: boolean }): string {
  const last = Math.ceil(o.total / o.pagesize);
  const found = counted(o.total, 'property', 'properties');
  const held = o.capped
    ? `the nearest ${found} at ${count(o.pagesize)} a page; pages reach no deeper`
    : `${found} at ${count(o.pagesize)} a page`;
  return `Page ${count(o.page)} is past the last page (page ${count(last)}: ${held})`;
}
