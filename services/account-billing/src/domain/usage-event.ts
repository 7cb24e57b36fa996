// A usage event as the charge script writes it to the outbox, and as the usage job carries it.
import { randomUUID } from 'node:crypto';

/**
 * A new event id: a UUID of version 7 (RFC 9562), the time in ms first, then 74 random bits. The ledger's two
 * indexes on it (usage_events' primary key, ledger_entries' one charge per grant) then take each batch at their
 * right edge, as they arrive; random ids put every one of a batch's thousands of entries on a page of its own, all
 * over indexes that outgrow memory (each page dirtied, and written whole to the WAL after a checkpoint).
 */
export function newEventId(now = Date.now()): string {
  const r = randomUUID(); // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: keep the random part and the variant
  const ms = Math.max(0, Math.floor(now)).toString(16).padStart(12, '0').slice(-12);
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${r.slice(15)}`;
}
export interface UsageEvent {
  /** The event's own id: new for every charge and every counted call (written once by it). */
  txid: string;
  /**
   * The id the client was answered with: a charge's transactionID (from an Idempotency-Key or the request id), an
   * uncharged call's request id. Absent in events written before it was carried.
   */
  request?: string;
  account: number;
  key: number;
  endpoint: string;
  credits: number;
  /** When it was charged (ms). */
  at: number;
  /** Credits taken from each grant, first-to-expire. */
  consumed: { grantId: number; credits: number }[];
  /** Outbox entry id ("ms-seq"): orders events against a reconciliation snapshot. */
  streamId: string;
  /** The charging request's W3C traceparent ('' when it was not traced). */
  trace?: string;
  /** The calls the charged call counts for (a batch: by its entries); 1 in events written before it was carried. */
  calls?: number;
}

export function eventFromStream(streamId: string, fields: string[]): UsageEvent {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
  return {
    txid: f.txid!,
    ...(f.request ? { request: f.request } : {}),
    account: Number(f.account),
    key: Number(f.key),
    endpoint: f.endpoint!,
    credits: Number(f.credits),
    at: Number(f.at),
    consumed: (f.consumed ?? '')
      .split(',')
      .filter(Boolean)
      .map((c) => {
        const [g, n] = c.split(':');
        return { grantId: Number(g), credits: Number(n) };
      }),
    streamId,
    ...(f.trace ? { trace: f.trace } : {}),
    calls: f.calls ? Number(f.calls) : 1,
  };
}

/** "1700000000000-3" -> [1700000000000, 3], for comparing stream ids. */
export function streamIdParts(id: string): [number, number] {
  const [ms, seq] = id.split('-');
  return [Number(ms), Number(seq ?? 0)];
}

export function streamIdAfter(a: string, b: string): boolean {
  const [am, as] = streamIdParts(a);
  const [bm, bs] = streamIdParts(b);
  return am > bm || (am === bm && as > bs);
}
