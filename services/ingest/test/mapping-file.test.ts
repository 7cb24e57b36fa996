// A mapping file a user got wrong: each refusal names the file and what is wrong with it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadMapping } from '../src/importer/mapping.js';

const dir = mkdtempSync(join(tmpdir(), 'pra-mapping-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

it('names the file of a mapping that is not JSON or YAML, or not a mapping', () => {
  const cut = file('cut.json', '{"name": "x", "kind": ');
  expect(() => loadMapping(cut)).toThrow(`Mapping ${cut} is not valid JSON: `);
  const tabs = file('tabs.yaml', 'name: x\n\tkind: property\n');
  expect(() => loadMapping(tabs)).toThrow(`Mapping ${tabs} is not valid YAML: `);
  const typo = file(
    'typo.json',
    JSON.stringify({ name: 'x', kind: 'property', fields: { ownerNmae: { column: 'O' } } }),
  );
  expect(() => loadMapping(typo)).toThrow(
    new RegExp(`Mapping ${typo} is invalid:\\n(.|\\n)*Unrecognized key: "ownerNmae"`),
  );
  expect(() => loadMapping(join(dir, 'missing.json'))).toThrow(/ENOENT/);
});
