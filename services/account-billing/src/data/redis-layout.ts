// Every Redis key billing uses, under one prefix per deployment (and per test run).
export interface RedisLayout {
  prefix: string;
  /** Hash grantId -> remaining credits of one account. */
  grants(accountId: number): string;
  /** Sorted set grantId -> expiry (ms): consumption goes first-to-expire, expired grants are skipped. */
  expiry(accountId: number): string;
  /**
   * Present while Redis holds balances loaded from PostgreSQL; gone after a wipe, and charging fails closed.
   * Its value is Redis's clock (ms) when the load started.
   */
  loaded: string;
  /** Result of a charged transaction, for idempotency. */
  charged(transactionId: string): string;
  /** Marks a request counted as a call without a charge (once per request id: a replay of it counts once). */
  called(requestId: string): string;
  /** The usage outbox stream, appended by the charge itself. */
  outbox: string;
  /** BullMQ key prefix. */
  queuePrefix: string;
}

export function redisLayout(prefix: string): RedisLayout {
  return {
    prefix,
    grants: (id) => `${prefix}acct:${id}:grants`,
    expiry: (id) => `${prefix}acct:${id}:expiry`,
    loaded: `${prefix}billing:loaded`,
    charged: (tx) => `${prefix}charged:${tx}`,
    called: (requestId) => `${prefix}called:${requestId}`,
    outbox: `${prefix}usage:outbox`,
    queuePrefix: `${prefix}bull`,
  };
}
