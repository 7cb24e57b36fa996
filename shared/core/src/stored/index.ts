export {
  decodeRecordDoc,
  decodeStoredJson,
  encodeRecordDoc,
  encodeStoredJson,
  type RecordDoc,
  storedCopyCell,
} from './stored-json.js';
