// What a half-typed address means. Complete words are normalised exactly as lookups normalise them; the last word,
// while still being typed, is a prefix that may also stand for a standard abbreviation ("stre" -> ST, "nor" -> N).
// The house number is kept apart: matched exactly once complete, by prefix while it is typed, never typo-matched.
import { DIRECTIONALS, parseStreetLine, SUFFIX_ABBREVIATIONS, tokenize } from '@pra/core/address';

export interface TypedQuery {
  /** House number typed so far ("123"), or null for a street-name search. */
  houseNumber: string | null;
  /** True when the number is complete (something follows it). */
  numberComplete: boolean;
  /** Prefixes of the normalised street (without the number) to look for; [] when only a number is typed. */
  streetPrefixes: string[];
}

const HOUSE_NUMBER = /^\d+[A-Z]?$/;

/** Words the last partial word may be on its way to, as their standard abbreviation (at most a few). */
function completions(partial: string): string[] {
  const out = new Set<string>([partial]);
  // A word typed in full ("STREET", "NORTH") also stands for its abbreviation.
  const own = SUFFIX_ABBREVIATIONS.get(partial) ?? DIRECTIONALS.get(partial);
  if (own !== undefined) out.add(own);
  if (partial.length >= 2) {
    for (const [word, abbr] of SUFFIX_ABBREVIATIONS)
      if (word.startsWith(partial) && word.length > partial.length) out.add(abbr);
    for (const [word, abbr] of DIRECTIONALS)
      if (word.startsWith(partial) && word.length > partial.length) out.add(abbr);
  }
  return [...out].slice(0, 6);
}

export function parseTypedQuery(q: string): TypedQuery {
  const tokens = tokenize(q).filter((t) => t !== '#');
  const endsWithSpace = /\s$/.test(q);
  let houseNumber: string | null = null;
  let rest = tokens;
  if (tokens.length > 0 && HOUSE_NUMBER.test(tokens[0]!)) {
    houseNumber = tokens[0]!;
    rest = tokens.slice(1);
  }
  const numberComplete = houseNumber !== null && (rest.length > 0 || endsWithSpace);
  if (rest.length === 0) return { houseNumber, numberComplete, streetPrefixes: [] };
  const complete = endsWithSpace ? rest : rest.slice(0, -1);
  const partial = endsWithSpace ? null : rest[rest.length - 1]!;
  // Normalise the complete words as a street that goes on (a trailing placeholder word keeps "NORTH" a directional).
  const PLACEHOLDER = 'QQQPLACEHOLDER';
  const normalised =
    complete.length > 0
      ? parseStreetLine([...complete, PLACEHOLDER].join(' ')).streetKey.replace(new RegExp(`\\s*${PLACEHOLDER}$`), '')
      : '';
  if (partial === null) {
    const full = parseStreetLine(complete.join(' ')).streetKey;
    return { houseNumber, numberComplete, streetPrefixes: [...new Set([full, normalised])].filter(Boolean) };
  }
  return {
    houseNumber,
    numberComplete,
    streetPrefixes: completions(partial).map((c) => (normalised ? `${normalised} ${c}` : c)),
  };
}
