// The change feed as the lookup reads it (records.change_events, written by imports: @pra/ingest/change-events):
// a page after a position, in one snapshot, and events again by id (a repeat's).
import type { Queryable } from '@pra/platform';
import {
  type ChangeEvent,
  type ChangeFeedPage,
  type ChangeFilter,
  readChangeEventsByIds,
  readChangeFeed,
} from '@pra/ingest/change-events';

export type { ChangeEvent, ChangeFilter };

export class ChangeFeedStore {
  constructor(readonly db: Queryable) {}

  page(after: string, limit: number, filter: ChangeFilter): Promise<ChangeFeedPage> {
    return readChangeFeed(this.db, { after, limit, filter });
  }

  byIds(ids: readonly string[]): Promise<ChangeEvent[]> {
    return readChangeEventsByIds(this.db, ids);
  }
}
