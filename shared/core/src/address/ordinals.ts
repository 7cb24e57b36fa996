// Spelled-out ordinals (FIRST, TWENTY FIRST, ONE HUNDREDTH) -> numeric ordinals (1ST, 21ST, 100TH).

const UNITS = [
  '',
  'FIRST',
  'SECOND',
  'THIRD',
  'FOURTH',
  'FIFTH',
  'SIXTH',
  'SEVENTH',
  'EIGHTH',
  'NINTH',
  'TENTH',
  'ELEVENTH',
  'TWELFTH',
  'THIRTEENTH',
  'FOURTEENTH',
  'FIFTEENTH',
  'SIXTEENTH',
  'SEVENTEENTH',
  'EIGHTEENTH',
  'NINETEENTH',
];
const TENS_ORDINAL = [
  '',
  '',
  'TWENTIETH',
  'THIRTIETH',
  'FORTIETH',
  'FIFTIETH',
  'SIXTIETH',
  'SEVENTIETH',
  'EIGHTIETH',
  'NINETIETH',
];
const TENS_CARDINAL = ['', '', 'TWENTY', 'THIRTY', 'FORTY', 'FIFTY', 'SIXTY', 'SEVENTY', 'EIGHTY', 'NINETY'];

export function ordinalSuffix(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}TH`;
  return `${n}${['TH', 'ST', 'ND', 'RD', 'TH', 'TH', 'TH', 'TH', 'TH', 'TH'][n % 10]}`;
}

const SINGLE = new Map<string, number>();
for (const [i, w] of UNITS.entries()) if (w) SINGLE.set(w, i);
for (const [i, w] of TENS_ORDINAL.entries()) if (w) SINGLE.set(w, i * 10);
SINGLE.set('HUNDREDTH', 100);
const TENS = new Map<string, number>();
for (const [i, w] of TENS_CARDINAL.entries()) if (w) TENS.set(w, i * 10);

const ORDINAL_ENDINGS = ['ST', 'ND', 'RD', 'TH', 'D'];
const DIGITS = /^\d+$/;

/**
 * The number of a digit ordinal ("21ST" -> 21, "05TH" -> 5, "2D" -> 2), or null. What /^0*(\d+)(ST|ND|RD|TH|D)$/
 * matched, read without a regex whose two digit runs (`0*` and `\d+`) backtrack against each other: that one is
 * quadratic in a run of zeros ("000...0X").
 */
function digitOrdinal(t: string): number | null {
  for (const ending of ORDINAL_ENDINGS) {
    if (t.length > ending.length && t.endsWith(ending)) {
      const digits = t.slice(0, t.length - ending.length);
      if (DIGITS.test(digits)) return Number(digits);
    }
  }
  return null;
}

/**
 * Rewrites spelled ordinals inside a token list. Returns a new list; "TWENTY FIRST" becomes one token "21ST".
 * Digit ordinals are canonicalised too ("01ST" -> "1ST", "2D" -> "2ND").
 */
export function numericOrdinals(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const tens = TENS.get(t);
    const next = tokens[i + 1];
    if (tens !== undefined && next !== undefined && SINGLE.has(next) && SINGLE.get(next)! < 10) {
      out.push(ordinalSuffix(tens + SINGLE.get(next)!));
      i++;
      continue;
    }
    const single = SINGLE.get(t);
    if (single !== undefined) {
      out.push(ordinalSuffix(single));
      continue;
    }
    const number = digitOrdinal(t);
    if (number !== null) {
      out.push(ordinalSuffix(number));
      continue;
    }
    out.push(t);
  }
  return out;
}
