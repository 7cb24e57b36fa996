export { decodeStoredJson, encodeStoredJson, storedCopyCell } from './stored-json.js';
