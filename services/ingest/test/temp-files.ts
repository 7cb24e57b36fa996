// Files a test writes (county files, mappings), in a temporary folder of its own that goes after the file's tests.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { loadMapping, type Mapping } from '../src/importer/mapping.js';

export interface TempFiles {
  /** Writes a new file (numbered, so names may repeat) and gives its path. */
  write(name: string, text: string | Uint8Array): string;
  /** A property mapping of these fields with a name of its own (`<prefix>-<random>`), so a source of its own. */
  propertyMapping(prefix: string, fields: object): { mapping: Mapping; source: string };
  /** A mapping of any kind (`body`: all but its name), with a name of its own (`<prefix>-<random>`). */
  namedMapping(prefix: string, body: object): Mapping;
}

export function useTempFiles(prefix: string): TempFiles {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  const write = (name: string, text: string | Uint8Array) => {
    const file = join(dir, `${++files}-${name}`);
    writeFileSync(file, text);
    return file;
  };
  const namedMapping = (namePrefix: string, body: object) => {
    const name = `${namePrefix}-${randomUUID().slice(0, 8)}`;
    return loadMapping(write(`${name}.json`, JSON.stringify({ ...body, name })));
  };
  return {
    write,
    propertyMapping(namePrefix, fields) {
      const mapping = namedMapping(namePrefix, { kind: 'property', fields });
      return { mapping, source: `import:${mapping.name}` };
    },
    namedMapping,
  };
}
