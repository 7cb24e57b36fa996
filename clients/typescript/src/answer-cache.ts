// The client's own cache of record answers (issue 38, "Unchanged is free"), opt-in: every answer that carries an
// ETag is kept with it, per request (method, URL and body); the same request is sent again with If-None-Match, and
// while its records are unchanged the API answers 304 (no body, 0 credits) and the client hands back the answer it
// kept, as a 200. `isNotModified(response)` tells such an answer from a fresh one.
//
// What a kept answer says: its records and status as first answered (status.transactionID and credits_remaining are
// the first call's); the response's X-Request-Id and RateLimit-* headers are this call's. A refusal (402, 429, 503)
// leaves the kept answer: it says nothing of the records. A new answer (a 200) replaces it.
import type { Middleware } from 'openapi-fetch';

export interface AnswerCacheOptions {
  /** Answers kept at most (the least recently used goes first); default 500. */
  maxEntries?: number;
  /** Characters of answer bodies kept at most, all together; default 50 million (~50 MB of JSON). */
  maxChars?: number;
}

interface Kept {
  etag: string;
  body: string;
  headers: [string, string][];
}

/** Answers by request, least recently used first (a Map keeps insertion order). */
export class AnswerCache {
  private readonly entries = new Map<string, Kept>();
  private chars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;

  constructor(o: AnswerCacheOptions = {}) {
    this.maxEntries = Math.max(1, o.maxEntries ?? 500);
    this.maxChars = Math.max(1, o.maxChars ?? 50_000_000);
  }

  /** Answers kept. */
  get size(): number {
    return this.entries.size;
  }

  get(key: string): Kept | undefined {
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      this.entries.set(key, kept);
    }
    return kept;
  }

  set(key: string, kept: Kept): void {
    this.delete(key);
    // An answer larger than the whole cache is not kept (it would push out everything else and then itself).
    if (kept.body.length > this.maxChars) return;
    this.entries.set(key, kept);
    this.chars += kept.body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= entry.body.length;
    }
  }

  delete(key: string): void {
    const kept = this.entries.get(key);
    if (!kept) return;
    this.entries.delete(key);
    this.chars -= kept.body.length;
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }
}

const fromCache = new WeakSet<Response>();

/**
 * True when this answer is the one the cache kept, handed back because the API answered 304 (its records unchanged:
 * 0 credits were charged for this call).
 */
export const isNotModified = (response: Response): boolean => fromCache.has(response);

/** The headers of this very call a kept answer is handed back with. */
const CALL_HEADERS = ['etag', 'x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'date'];

/** Headers of the body as it travelled, not as kept (decoded text). */
const BODY_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding']);

/** The opaque tag of an entity tag (weak comparison, as the API compares). */
const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/** The openapi-fetch middleware of an AnswerCache. */
export function answerCacheMiddleware(cache: AnswerCache): Middleware {
  // What each request in flight was sent holding: its key, and the answer kept when it was sent.
  const inFlight = new Map<string, { key: string; kept: Kept | undefined }>();
  return {
    async onRequest({ request, id }) {
      if (request.method !== 'GET' && request.method !== 'POST') return undefined;
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const key = `${request.method} ${request.url}\n${body}`;
      const kept = cache.get(key);
      inFlight.set(id, { key, kept });
      // A tag the caller sends itself wins (its own cache); else the kept answer's.
      if (kept && !request.headers.has('if-none-match')) request.headers.set('if-none-match', kept.etag);
      return undefined;
    },
    async onResponse({ response, id }) {
      const sent = inFlight.get(id);
      inFlight.delete(id);
      if (!sent) return undefined;
      const etag = response.headers.get('etag');
      if (response.status === 304) {
        if (!sent.kept || etag === null || opaque(etag) !== opaque(sent.kept.etag)) return undefined;
        const headers = new Headers(sent.kept.headers);
        for (const name of CALL_HEADERS) {
          const value = response.headers.get(name);
          if (value !== null) headers.set(name, value);
        }
        const answer = new Response(sent.kept.body, { status: 200, statusText: 'OK', headers });
        fromCache.add(answer);
        return answer;
      }
      if (response.status === 200) {
        if (etag === null) {
          cache.delete(sent.key);
          return undefined;
        }
        const body = await response.clone().text();
        const headers = [...response.headers].filter(([name]) => !BODY_HEADERS.has(name));
        cache.set(sent.key, { etag, body, headers });
      }
      return undefined;
    },
    onError({ id }) {
      inFlight.delete(id);
      return undefined;
    },
  };
}
