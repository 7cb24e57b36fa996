// The type-ahead index behind /property/autocomplete. Two adapters: PostgreSQL (the embedded default) and
// Typesense (production); the service behaves the same on both (one contract test suite).
import type { TypedQuery } from './typed-query.js';

export interface SuggestionDoc {
  propertyId: number;
  houseNumber: string | null;
  lineKey: string;
  streetKey: string;
  unitKey: string;
  zip: string;
  state: string;
  cityKey: string;
  /** The rendered suggestion: {"identifier":{"Id":...},"address":{line1,line2,locality,countrySubd,postal1,oneLine}}. */
  doc: string;
}

export interface SearchFilters {
  zip?: string;
  state?: string;
  limit: number;
}

export interface SearchIndex {
  /** Which engine answers (a metric label). */
  readonly backend: 'postgres' | 'typesense';
  /** Suggestions, best first, as rendered JSON texts. */
  search(q: TypedQuery, f: SearchFilters): Promise<string[]>;
  /** Adds or replaces documents. */
  upsert(docs: readonly SuggestionDoc[]): Promise<void>;
  /** Removes documents whose property is gone. */
  remove(propertyIds: readonly number[]): Promise<void>;
  /** Starts a full re-index that readers do not see until `finish` (Typesense: a new collection, then an alias swap). */
  beginRebuild(): Promise<{ write(docs: readonly SuggestionDoc[]): Promise<void>; finish(): Promise<void> }>;
}
