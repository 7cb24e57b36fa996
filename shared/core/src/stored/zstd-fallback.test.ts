// A Node whose zlib streams expose no native handle to drive (zstd-v1.ts drives undocumented internals): the stored
// format falls back to node:zlib's one-shot calls, which write and read the same values and refuse the same damage.
// The streams are replaced by objects without a handle, so every value goes through the fallback.
import { zstdDecompressSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { decodeRecordDoc, decodeStoredJson, encodeRecordDoc, encodeStoredJson } from './index.js';
import { decodeRecordBody } from './record-body.js';
import { dictionary, ZSTD_V1 } from './stored-format.js';

const made = vi.hoisted(() => ({ streams: 0 }));

vi.mock('node:zlib', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:zlib')>();
  const noHandle = () => {
    made.streams++;
    return { destroy: () => {} };
  };
  return { ...real, createZstdCompress: noHandle, createZstdDecompress: noHandle };
});

describe('the stored format on a Node without a zstd handle to drive', () => {
  it('writes and reads every value with the one-shot calls, the body alone too', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            body: fc.json({ maxDepth: 3 }),
            histories: fc.option(fc.record({ sales: fc.json(), assessments: fc.json() })),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (docs) => {
          for (const { body, histories } of docs) {
            const stored = encodeRecordDoc(body, histories);
            expect(stored[0]).toBe(ZSTD_V1);
            const text = histories ? `${body}\n${histories.sales}\n${histories.assessments}` : body;
            expect(zstdDecompressSync(stored.subarray(1), { dictionary }).toString('utf8')).toBe(text);
            expect(decodeRecordDoc(stored).body).toBe(body);
            expect(decodeRecordBody(stored)).toBe(body);
          }
        },
      ),
      { numRuns: 100 },
    );
    const large = JSON.stringify({ t: 'x'.repeat(300_000) });
    expect(decodeStoredJson(encodeStoredJson(large))).toBe(large);
    expect(decodeStoredJson(encodeStoredJson(''))).toBe('');
    // Each kind of stream was asked for once, found without a handle, and not asked for again.
    expect(made.streams).toBe(2);
  });

  it('refuses damage as the kept contexts do: cut short, bytes after the frame, a changed byte', () => {
    const json = JSON.stringify({ a: 'x'.repeat(500), b: [1, 2, 3] });
    const stored = Buffer.from(encodeStoredJson(json));
    expect(() => decodeStoredJson(stored.subarray(0, stored.length - 3))).toThrow(/damaged/);
    expect(() => decodeStoredJson(Buffer.concat([stored, Buffer.from('xyz')]))).toThrow(/damaged/);
    const changed = Buffer.from(stored);
    changed[changed.length - 8] = changed[changed.length - 8]! ^ 0x01;
    expect(() => decodeStoredJson(changed)).toThrow(/damaged/);
    expect(decodeStoredJson(stored)).toBe(json);
  });
});
