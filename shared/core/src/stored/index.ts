export {
  decodeRecordDoc,
  decodeStoredJson,
  encodeRecordDoc,
  encodeStoredJson,
  type RecordDoc,
  storedAddress,
  type StoredAddress,
} from './stored-json.js';
export { maxUtf8Bytes } from './max-utf8-bytes.js';
