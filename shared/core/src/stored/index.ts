export {
  decodeRecordDoc,
  decodeStoredJson,
  encodeRecordDoc,
  encodeStoredJson,
  type RecordDoc,
  storedAddress,
  type StoredAddress,
  storedCopyCell,
} from './stored-json.js';
