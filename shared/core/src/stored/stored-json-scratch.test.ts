// encodeStoredJson writes each text's UTF-8 into a buffer it keeps for the thread's life (stored-json.ts). This file
// has the module to itself (vitest gives each test file its own), so the buffer starts at its first size here: the
// texts below meet it as it grows, and at the largest text it keeps.
import { describe, expect, it } from 'vitest';
import { decodeStoredJson, encodeStoredJson, FIRST_SCRATCH_BYTES, KEPT_SCRATCH_BYTES } from './stored-json.js';

describe("encodeStoredJson's kept buffer", () => {
  it('holds at its edges: its first size, as it grows, and past the largest text it keeps', () => {
    // Texts of up to 3 bytes a UTF-16 unit: the units that fill the first size, and the kept maximum, and one more.
    const first = Math.floor(FIRST_SCRATCH_BYTES / 3);
    const kept = Math.floor(KEPT_SCRATCH_BYTES / 3);
    const written: [string, Buffer][] = [];
    for (const units of [0, 1, first - 1, first, first + 1, 2 * first + 1, kept, kept + 1])
      for (const ch of ['a', 'é', '€', '🏠', '\ud800', '\udc00\ud800']) {
        const text = ch.repeat(Math.ceil(units / ch.length)).slice(0, units);
        written.push([text, encodeStoredJson(text)]);
      }
    // Every value decodes to its text's UTF-8 (a lone surrogate as U+FFFD), after all the others were written.
    for (const [text, stored] of written) expect(decodeStoredJson(stored)).toBe(Buffer.from(text).toString());
  });
});
