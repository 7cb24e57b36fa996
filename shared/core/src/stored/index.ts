export { decodeStoredJson, encodeStoredJson, splitHistories, storedCopyCell } from './stored-json.js';
