// /health (SPEC 2.5): status, database state, record count and version; one cheap query, cached for a second.
import { API_VERSION, type HealthResponse } from '@pra/core/contracts';
import type { RecordStore } from '../data/record-queries.js';

export class HealthCheck {
  private cached: { at: number; value: HealthResponse } | null = null;
  constructor(
    private readonly store: RecordStore,
    private readonly ttlMs = 1_000,
  ) {}

  async check(): Promise<HealthResponse> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < this.ttlMs) return this.cached.value;
    let value: HealthResponse;
    try {
      value = { status: 'ok', db: 'connected', records: await this.store.recordCount(), version: API_VERSION };
    } catch {
      value = {
        status: 'degraded',
        db: 'disconnected',
        records: this.cached?.value.records ?? 0,
        version: API_VERSION,
      };
    }
    this.cached = { at: now, value };
    return value;
  }
}
