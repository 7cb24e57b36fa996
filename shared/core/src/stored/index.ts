export {
  decodeRecordDoc,
  decodeStoredJson,
  encodeRecordDoc,
  encodeStoredJson,
  type RecordDoc,
  storedAddress,
  type StoredAddress,
} from './stored-json.js';
export { utf8Bound } from './utf8-bound.js';
