// The client's answer cache (issue 38) against a stand-in API that answers as the lookup does: a 200 with an ETag,
// a 304 without a body when If-None-Match holds the current tag. What is kept, what is sent, what is handed back,
// and the bounds (least recently used out, answers past the size budget not kept).
import { describe, expect, it } from 'vitest';
import { AnswerCache, createPropertyRecordsClient, isNotModified } from '../src/index.js';

/** A stand-in API: each URL (and body) answers its current version; `seen` records the If-None-Match it was sent. */
function standIn() {
  const version = new Map<string, number>();
  const seen: (string | null)[] = [];
  const state = { refuseNext: false };
  let calls = 0;
  const fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    calls++;
    const key = `${request.method} ${request.url} ${request.method === 'POST' ? await request.text() : ''}`;
    if (!version.has(key)) version.set(key, 1);
    const v = version.get(key)!;
    const etag = `"v${v}-${Buffer.from(key).toString('base64url').slice(-12)}"`;
    const held = request.headers.get('if-none-match');
    seen.push(held);
    if (state.refuseNext) {
      state.refuseNext = false;
      const refusal = { property: [], status: { code: 429, reason: 'rate_limited', msg: 'Rate limit', total: 0 } };
      return new Response(JSON.stringify(refusal), { status: 429, headers: { 'content-type': 'application/json' } });
    }
    if (held?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      return new Response(null, { status: 304, headers: { etag, 'x-request-id': `call-${calls}` } });
    }
    const body = JSON.stringify({
      property: [{ version: v, padding: 'x'.repeat(request.url.includes('big') ? 5_000 : 10) }],
      status: { code: 0, transactionID: `call-${calls}` },
    });
    return new Response(body, {
      status: 200,
      headers: { 'content-type': 'application/json', etag, 'x-request-id': `call-${calls}` },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, version, seen, state };
}

const BASE = 'http://api.test/api/v1';
const address = (n: number | string) => ({ params: { query: { address: `${n} MAIN ST`, zip: '95814' } } });

describe('the answer cache', () => {
  it('sends the tag it holds and hands back the kept answer on a 304, marked not modified', async () => {
    const api = standIn();
    const client = createPropertyRecordsClient({ baseUrl: BASE, apiKey: 'k', fetch: api.fetch, cache: true });
    const first = await client.GET('/property/address', address(1));
    expect(isNotModified(first.response)).toBe(false);
    const second = await client.GET('/property/address', address(1));
    expect(api.seen).toEqual([null, first.response.headers.get('etag')]);
    expect(isNotModified(second.response)).toBe(true);
    expect(second.response.status).toBe(200);
    expect(second.data).toEqual(first.data);
    // The call's own id, the kept body's status.
    expect(second.response.headers.get('x-request-id')).toBe('call-2');
    expect(second.data!.status.transactionID).toBe('call-1');
  });

  it('a changed answer replaces the kept one; a refusal leaves it', async () => {
    const api = standIn();
    const client = createPropertyRecordsClient({ baseUrl: BASE, apiKey: 'k', fetch: api.fetch, cache: true });
    await client.GET('/property/address', address(2));
    for (const k of api.version.keys()) api.version.set(k, 2);
    const changed = await client.GET('/property/address', address(2));
    expect(isNotModified(changed.response)).toBe(false);
    expect((changed.data as unknown as { property: { version: number }[] }).property[0]!.version).toBe(2);
    api.state.refuseNext = true;
    expect((await client.GET('/property/address', address(2))).response.status).toBe(429);
    const again = await client.GET('/property/address', address(2));
    expect(isNotModified(again.response)).toBe(true);
    expect(again.data).toEqual(changed.data);
  });

  it("keeps a batch per body, and leaves a tag the caller sends itself alone (its 304 is the caller's)", async () => {
    const api = standIn();
    const client = createPropertyRecordsClient({ baseUrl: BASE, apiKey: 'k', fetch: api.fetch, cache: true });
    const batch = (n: number) =>
      client.POST('/property/batch', { body: { requests: [{ id: 'a', address: `${n} A ST` }] } });
    await batch(1);
    await batch(2);
    expect(isNotModified((await batch(1)).response)).toBe(true);
    expect(isNotModified((await batch(2)).response)).toBe(true);
    // A tag of the caller's own (an answer it keeps itself): sent as given, and its 304 handed back as is.
    const elsewhere = createPropertyRecordsClient({ baseUrl: BASE, apiKey: 'k', fetch: api.fetch });
    const tag = (await elsewhere.GET('/property/address', address(3))).response.headers.get('etag')!;
    const own = await client.GET('/property/address', {
      params: { ...address(3).params, header: { 'If-None-Match': tag } },
    });
    expect(api.seen.at(-1)).toBe(tag);
    expect(own.response.status).toBe(304);
    expect(own.data).toBeUndefined();
    expect(isNotModified(own.response)).toBe(false);
  });

  it('keeps at most maxEntries answers, the least recently used out, and none larger than maxChars', async () => {
    const api = standIn();
    const cache = new AnswerCache({ maxEntries: 2, maxChars: 1_000 });
    const client = createPropertyRecordsClient({ baseUrl: BASE, apiKey: 'k', fetch: api.fetch, cache });
    await client.GET('/property/address', address(1));
    await client.GET('/property/address', address(2));
    await client.GET('/property/address', address(1)); // 1 used again: 2 is now the least recent
    await client.GET('/property/address', address(3));
    expect(cache.size).toBe(2);
    expect(isNotModified((await client.GET('/property/address', address(2))).response)).toBe(false);
    expect(isNotModified((await client.GET('/property/address', address(3))).response)).toBe(true);
    // An answer past the whole budget is not kept (it would push out everything else).
    await client.GET('/property/address', address('big'));
    expect(isNotModified((await client.GET('/property/address', address('big'))).response)).toBe(false);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('is off by default: nothing kept, no tag sent', async () => {
    const api = standIn();
    const client = createPropertyRecordsClient({ baseUrl: BASE, apiKey: 'k', fetch: api.fetch });
    await client.GET('/property/address', address(1));
    const second = await client.GET('/property/address', address(1));
    expect(api.seen).toEqual([null, null]);
    expect(isNotModified(second.response)).toBe(false);
  });
});
