// An owner entity's name as one key (issue 37, docs/data.md "Owner entities"): what the ingest's owner resolution
// joins entities by, and what owner search matches, so both read a name alike.
/** Written variants of entity words, to one spelling each (after punctuation is gone and L L C is LLC). */
const ENTITY_WORDS = new Map<string, string>([
  ['INCORPORATED', 'INC'],
  ['CORPORATION', 'CORP'],
  ['COMPANY', 'CO'],
  ['LIMITED', 'LTD'],
  ['TR', 'TRUST'],
  ['TRS', 'TRUST'],
  ['TRST', 'TRUST'],
  ['TTEE', 'TRUST'],
  ['TTEES', 'TRUST'],
  ['TRUSTEE', 'TRUST'],
  ['TRUSTEES', 'TRUST'],
  ['ASSOCIATION', 'ASSN'],
  ['ASSOC', 'ASSN'],
  ['PARTNERSHIP', 'PTSHP'],
  ['LP', 'LP'],
  ['LLLP', 'LLLP'],
]);

/**
 * An entity's name as one key: "The Acme Holdings, L.L.C." and "ACME HOLDINGS LLC" are "ACME HOLDINGS LLC"; "SMITH
 * FAMILY TR" and "SMITH FAMILY TRUST" are one; "&" is AND.
 */
export function entityNameKey(name: string): string {
  const text = name
    .toUpperCase()
    .replace(/&/g, ' AND ')
    // Periods and apostrophes join what they sit in ("L.L.C." is LLC, "O'NEIL" is ONEIL); other marks separate.
    .replace(/[.'’]/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
  let words = text.split(' ').filter((w) => w !== '');
  // "L L C", "L L P", "L P" written apart, and "LIMITED LIABILITY COMPANY".
  const joined = ` ${words.join(' ')} `
    .replace(/ LIMITED LIABILITY (COMPANY|CO) /g, ' LLC ')
    .replace(/ L L C /g, ' LLC ')
    .replace(/ L L P /g, ' LLP ')
    .replace(/ L P /g, ' LP ');
  words = joined
    .trim()
    .split(' ')
    .map((w) => ENTITY_WORDS.get(w) ?? w);
  if (words[0] === 'THE' && words.length > 1) words.shift();
  if (words.at(-1) === 'THE' && words.length > 1) words.pop();
  // "TRUST TRUST" (a trust and its trustee words) is one TRUST.
  return words.filter((w, i) => !(w === 'TRUST' && words[i - 1] === 'TRUST')).join(' ');
}
