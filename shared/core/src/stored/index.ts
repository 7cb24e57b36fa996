export {
  decodeRecordDoc,
  decodeStoredJson,
  encodeRecordDoc,
  encodeStoredJson,
  type RecordDoc,
  storedAddress,
  type StoredAddress,
} from './stored-json.js';
