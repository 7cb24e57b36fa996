// A usage event as the charge script writes it to the outbox, and as the usage job carries it.
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
