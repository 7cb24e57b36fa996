// Files a test writes (county files, mappings), in a temporary folder of its own that goes after the file's tests.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** `write(name, text)` writes a new file (numbered, so names may repeat) and gives its path. */
export function useTempFiles(prefix: string): { write(name: string, text: string): string } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  return {
    write(name, text) {
      const file = join(dir, `${++files}-${name}`);
      writeFileSync(file, text);
      return file;
    },
  };
}
