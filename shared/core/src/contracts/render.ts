// The success envelope (SPEC 2.2) around records that are already JSON text: written by string concatenation,
// so stored records are sent as stored, never parsed and re-serialised.
export interface EnvelopeStatus {
  total: number;
  page: number;
  pagesize: number;
  transactionId: string;
  creditsRemaining: number;
  recordsReturned: number;
  truncatedByCredits: boolean;
  /** A preview's cost of the call (nothing was charged). */
  creditsRequired?: number;
  /** How an address answer matched (status.match), as JSON text. */
  matchJson?: string;
}

export function renderEnvelope(items: readonly string[], s: EnvelopeStatus): string {
  return `{"property":[${items.join(',')}],"status":${renderStatus(s)}}`;
}

/** The success status (SuccessStatus) as JSON text: the envelope's, and the owner endpoints' (issue 37). */
export function renderStatus(s: EnvelopeStatus): string {
  return (
    `{"code":0,"msg":"SuccessWithResult","total":${s.total},` +
    `"page":${s.page},"pagesize":${s.pagesize},"transactionID":"${s.transactionId}","credits_remaining":${s.creditsRemaining},` +
    `"records_returned":${s.recordsReturned},"truncated_by_credits":${s.truncatedByCredits}` +
    `${s.creditsRequired !== undefined ? `,"credits_required":${s.creditsRequired}` : ''}` +
    `${s.matchJson !== undefined ? `,"match":${s.matchJson}` : ''}}`
  );
}
