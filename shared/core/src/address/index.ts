export {
  ADDRESS_KEYS_VERSION,
  parseStreetLine,
  parseAskedLine,
  parseMailingLine,
  dashLetterAsUnit,
  normalizeCity,
  splitZip,
  apnKey,
  separatedApnKey,
  nameKey,
  countyKey,
  countyKeys,
  tokenize,
  looseDirectionals,
} from './normalize.js';
export type { StreetLine } from './normalize.js';
export { unglued } from './glued.js';
export { ordinalSuffix, numericOrdinals } from './ordinals.js';
export { SUFFIX_ABBREVIATIONS, UNIT_DESIGNATORS, DIRECTIONALS } from './usps-tables.js';
export { STATE_FIPS, STATE_BY_FIPS } from './states.js';
export { entityNameKey } from './entity-names.js';
