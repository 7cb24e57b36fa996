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
    const digits = /^0*(\d+)(ST|ND|RD|TH|D)$/.exec(t);
    if (digits) {
      out.push(ordinalSuffix(Number(digits[1])));
      continue;
    }
    out.push(t);
  }
  return out;
}
