// The stored format does not depend on which values a thread's kept zstd contexts took before: each value written
// decodes alone (a new context, nothing but the dictionary) to itself, within a few bytes of a one-shot zstd's; each
// value read decodes to what was written, whatever came before it, damaged values included; and the encodings
// written earlier (raw, deflate v1) are read as they were.
import { deflateRawSync, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRecordDoc, decodeStoredJson, encodeRecordDoc, encodeStoredJson } from './index.js';
import { decodeRecordBody } from './record-body.js';
import { DEFLATE_V1, dictionary, RAW, WINDOW_BITS, ZSTD_V1 } from './stored-format.js';

const oneShot = (json: string) => zstdCompressSync(json, { dictionary }).length + 1;

/** Decoded as any reader could: alone, a new context, with nothing but the dictionary. */
const decodedAlone = (stored: Buffer) => zstdDecompressSync(stored.subarray(1), { dictionary }).toString('utf8');

/** The encodings written before: deflate v1 (until issue 36's fifth pass) and raw (a migration's). */
const deflateV1 = (json: string) =>
  Buffer.concat([
    Buffer.from([DEFLATE_V1]),
    deflateRawSync(json, { dictionary, windowBits: WINDOW_BITS, level: 6, memLevel: 8 }),
  ]);
const raw = (json: string) => Buffer.concat([Buffer.from([RAW]), Buffer.from(json, 'utf8')]);

/** Text that does not compress (a fixed pseudo-random sequence). */
const random = (n: number) => {
  let x = 7;
  const chars: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    chars.push(String.fromCharCode(33 + (x % 90)));
  }
  return chars.join('');
};

const jsonValues = fc.oneof(
  fc.json({ maxDepth: 4 }),
  // Text of any script, past the compressor's first buffer now and then.
  fc.string({ unit: 'grapheme', maxLength: 3_000 }).map((t) => JSON.stringify({ t })),
  fc.nat({ max: 40_000 }).map((n) => JSON.stringify({ t: random(n) })),
);

describe('encodeStoredJson', () => {
  it('writes, value after value, what decodes alone to each value, within a few bytes of a one-shot zstd', () => {
    fc.assert(
      fc.property(fc.array(jsonValues, { minLength: 1, maxLength: 8 }), (values) => {
        const written: Buffer[] = [];
        for (const json of values) {
          const stored = encodeStoredJson(json);
          written.push(stored);
          expect(stored[0]).toBe(ZSTD_V1);
          expect(decodedAlone(stored)).toBe(json);
          expect(decodeStoredJson(stored)).toBe(json);
          expect(stored.length).toBeLessThanOrEqual(oneShot(json) + 16);
        }
        // Each value is its own: the text's UTF-8 goes through a buffer the next value writes over.
        expect(written.map((stored) => decodeStoredJson(stored))).toEqual(values);
      }),
      { numRuns: 300 },
    );
  });

  it('holds for values larger than its buffers and for ones that do not compress', () => {
    for (const json of [
      '',
      JSON.stringify({ text: random(100_000) }),
      JSON.stringify({ text: 'abc'.repeat(200_000) }),
      JSON.stringify({ text: random(2_000) }),
      JSON.stringify({ names: ['ÅSA', 'ÉLODIE', '李'] }),
      JSON.stringify({ text: random(3_000_000) }),
    ]) {
      const stored = encodeStoredJson(json);
      expect(decodedAlone(stored)).toBe(json);
      expect(decodeStoredJson(stored)).toBe(json);
      expect(stored.length).toBeLessThanOrEqual(oneShot(json) + 16);
    }
  });

  it('keeps a record document whole: body and both histories', () => {
    const doc = { body: '{"identifier":{"Id":1}}', sales: '[{"date":"2020-01-02"}]', assessments: '[]' };
    expect(decodeRecordDoc(encodeRecordDoc(doc.body, doc))).toEqual(doc);
    expect(decodeRecordDoc(encodeRecordDoc(doc.body, null))).toEqual({ ...doc, sales: '[]' });
  });
});

describe('decodeStoredJson and decodeRecordBody', () => {
  it('read every encoding, and the body alone, in any order of values, damaged ones among them', () => {
    const doc = fc.record({
      body: jsonValues,
      histories: fc.option(fc.record({ sales: jsonValues, assessments: jsonValues })),
    });
    // A value as stored (any encoding), or damaged: cut short, or bytes changed.
    const stored = fc.oneof(
      fc.record({ doc, encoding: fc.constantFrom('zstd', 'deflate', 'raw') }),
      fc.record({ doc, cut: fc.double({ min: 0, max: 0.99, noNaN: true }) }),
      fc.record({ doc, flip: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }) }),
    );
    fc.assert(
      fc.property(fc.array(stored, { minLength: 1, maxLength: 10 }), (values) => {
        for (const v of values) {
          const { body, histories } = v.doc;
          const text = histories ? `${body}\n${histories.sales}\n${histories.assessments}` : body;
          const zstd = encodeRecordDoc(body, histories);
          if ('encoding' in v) {
            const value = v.encoding === 'zstd' ? zstd : v.encoding === 'deflate' ? deflateV1(text) : raw(text);
            expect(decodeStoredJson(value)).toBe(text);
            expect(decodeRecordBody(value)).toBe(body);
            continue;
          }
          // A damaged value: refused, saying so (the frame has its size and a checksum), or read as the very text
          // (a changed bit zstd does not read), or, for the body alone of a value cut past the body, read; never a
          // crash, and the values after it read right (the context it left is given up).
          const damaged = Buffer.from(zstd);
          if ('cut' in v) {
            const cut = damaged.subarray(0, Math.max(1, Math.floor(damaged.length * v.cut)));
            expect(() => decodeStoredJson(cut)).toThrow(/damaged/);
            try {
              decodeRecordBody(cut);
            } catch (err) {
              expect((err as Error).message).toMatch(/damaged/);
            }
          } else {
            // Each byte changed once (twice would be no change).
            for (const i of new Set(v.flip.map((at) => 1 + (at % (damaged.length - 1)))))
              damaged[i] = damaged[i]! ^ 0x5a;
            // Refused, or (a bit zstd does not read) the very text: never other text (the checksum).
            try {
              expect(decodeStoredJson(damaged)).toBe(text);
            } catch (err) {
              expect((err as Error).message).toMatch(/damaged/);
            }
            // The body alone of a value over 64 KB is read before the checksum at its end: damage past the body
            // goes unseen there (and damage in its first block may too); a smaller value is read whole.
            try {
              decodeRecordBody(damaged);
            } catch (err) {
              expect((err as Error).message).toMatch(/damaged/);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a value whose frame claims more than it holds, naming it damaged', () => {
    const stored = Buffer.from(encodeStoredJson(JSON.stringify({ a: 'x'.repeat(500) })));
    const cut = stored.subarray(0, stored.length - 3);
    expect(() => decodeStoredJson(cut)).toThrow(/damaged/);
    // The reader goes on: the next value decodes.
    expect(decodeStoredJson(encodeStoredJson('{"b":1}'))).toBe('{"b":1}');
  });

  it('refuses a value changed inside its content (the frame has a checksum), and reads the next one', () => {
    const json = JSON.stringify({ a: 'x'.repeat(500), b: random(300) });
    const stored = Buffer.from(encodeStoredJson(json));
    for (let at = 12; at < stored.length - 4; at += 7) {
      const damaged = Buffer.from(stored);
      damaged[at] = damaged[at]! ^ 0x01;
      expect(() => decodeStoredJson(damaged)).toThrow(/damaged/);
      expect(decodeStoredJson(stored)).toBe(json);
    }
  });

  it('refuses a frame without its content size, a skippable frame and bytes after a frame, before decoding', () => {
    // A zstd frame as another writer could make it: no content size in its header (descriptor 0), a 128 KB window,
    // and RLE blocks of 128 KB of 'x' each: 4 bytes a block that would each decode to 128 KB, unbounded.
    const rle = (n: number, last: boolean) => {
      const header = (last ? 1 : 0) | (1 << 1) | (n << 3);
      return [header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0x78];
    };
    const blocks = Array.from({ length: 64 }, (_, i) => rle(128 * 1024, i === 63)).flat();
    const unsized = Buffer.from([ZSTD_V1, 0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38, ...blocks]);
    expect(() => decodeStoredJson(unsized)).toThrow(/no content size/);
    expect(() => decodeRecordBody(unsized)).toThrow(/no content size/);
    const skippable = Buffer.from([ZSTD_V1, 0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4]);
    expect(() => decodeStoredJson(skippable)).toThrow(/no content size/);
    const good = encodeStoredJson('{"a":1}');
    expect(() => decodeStoredJson(Buffer.concat([good, Buffer.from('garbage')]))).toThrow(/7 bytes follow its end/);
    expect(decodeStoredJson(good)).toBe('{"a":1}');
  });

  it('names a damaged deflate value (encoding 1) as damaged too', () => {
    const value = deflateV1(JSON.stringify({ a: 'x'.repeat(500), b: random(300) }));
    const cut = value.subarray(0, value.length - 20);
    expect(() => decodeStoredJson(cut)).toThrow(/stored value \(deflate, encoding 1\) is damaged/);
    const changed = Buffer.from(value);
    changed[1] = 0xff;
    expect(() => decodeStoredJson(changed)).toThrow(/damaged/);
    expect(() => decodeRecordBody(changed)).toThrow(/damaged/);
  });

  it('refuses an unknown encoding, saying which it reads', () => {
    expect(() => decodeStoredJson(Buffer.from([9, 1, 2]))).toThrow(/0 \(raw\), 1 \(deflate v1\) and 2 \(zstd v1\)/);
  });
});
