// If-None-Match as RFC 9110 writes it: a list of entity tags, weak or strong, with empty elements and whitespace;
// anything else a 400 naming the header, `*` one naming why; linear on the longest header a server takes.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@pra/core/errors';
import { heldEntityTags } from './conditional.js';
import { MAX_REQUEST_HEAD_BYTES } from './http.js';

const held = (value: string | string[] | undefined) =>
  heldEntityTags({ headers: value === undefined ? {} : { 'if-none-match': value } } as unknown as IncomingMessage);

const refusal = (value: string) => {
  try {
    held(value);
  } catch (err) {
    return err as ApiError;
  }
  throw new Error(`${JSON.stringify(value)} was taken`);
};

describe('If-None-Match', () => {
  it('is undefined when not sent', () => {
    expect(held(undefined)).toBeUndefined();
  });

  it('lists the opaque tags, quotes kept, W/ dropped (weak comparison)', () => {
    expect(held('"abc"')).toEqual(['"abc"']);
    expect(held('W/"abc"')).toEqual(['"abc"']);
    expect(held('"a", W/"b" ,"c"')).toEqual(['"a"', '"b"', '"c"']);
    expect(held(' "a" ,, "b", ')).toEqual(['"a"', '"b"']);
    // A comma is a character of an opaque tag like any other but the quote.
    expect(held('"a,b", "c"')).toEqual(['"a,b"', '"c"']);
    expect(held('""')).toEqual(['""']);
    // Two header lines, as node may hand them.
    expect(held(['"a"', 'W/"b"'])).toEqual(['"a"', '"b"']);
  });

  it('refuses what the grammar does not allow with a 400 naming the header', () => {
    for (const bad of [
      'abc',
      '"abc',
      'abc"',
      'w/"abc"',
      'W/ "abc"',
      '"a" "b"',
      '"a"x',
      ',',
      '  ',
      '"a\u0001"',
      '"a"b"',
    ]) {
      const err = refusal(bad);
      expect(err, bad).toBeInstanceOf(ApiError);
      expect(err.status).toBe(400);
      expect(err.reason).toBe('invalid_header');
      expect(err.message).toMatch(/If-None-Match/);
    }
  });

  it('refuses *: on a record answer it would say for free whether records exist', () => {
    for (const star of ['*', ' * ']) {
      const err = refusal(star);
      expect(err.reason).toBe('invalid_header');
      expect(err.message).toMatch(/If-None-Match: \* is not taken/);
    }
    // `*` within a list is outside the grammar.
    expect(refusal('"a", *').message).toMatch(/give the ETag of an answer you received/);
  });

  it('reads the longest header a server takes, whatever it holds (linear: no backtracking over spaces)', () => {
    expect(refusal(`${' '.repeat(MAX_REQUEST_HEAD_BYTES)}x`).reason).toBe('invalid_header');
    expect(refusal(`"a"${' \t'.repeat(MAX_REQUEST_HEAD_BYTES / 2)}x`).reason).toBe('invalid_header');
    const many = Array.from({ length: MAX_REQUEST_HEAD_BYTES / 8 }, (_, i) => `"${i}"`).join(',');
    expect(held(many)).toHaveLength(MAX_REQUEST_HEAD_BYTES / 8);
  });
});
