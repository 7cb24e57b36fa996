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

/** A search's answer: the suggestions returned, and how many match in all. */
export interface Suggestions {
  /** At most `limit` suggestions, best first, as rendered JSON texts. */
  docs: string[];
  /**
   * The suggestions that match (each property once), counted up to `countCap`: exact below it, `countCap` when that
   * many or more match. Never fewer than `docs.length`.
   */
  total: number;
}

export interface SearchIndex {
  /** Which engine answers (a metric label). */
  readonly backend: 'postgres' | 'typesense';
  /** Suggestions, best first, and how many match (counted up to `countCap`). */
  search(q: TypedQuery, f: SearchFilters, countCap: number): Promise<Suggestions>;
  /** Adds or replaces documents. */
  upsert(docs: readonly SuggestionDoc[]): Promise<void>;
  /** Removes documents whose property is gone. */
  remove(propertyIds: readonly number[]): Promise<void>;
  /** Starts a full re-index that readers do not see until `finish` (Typesense: a new collection, then an alias swap). */
  beginRebuild(): Promise<{ write(docs: readonly SuggestionDoc[]): Promise<void>; finish(): Promise<void> }>;
}
