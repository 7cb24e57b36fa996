// The checked-in types are the OpenAPI document's of this commit: a change to the API without
// `npm run client:generate` fails here.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SCHEMA_FILE, schemaSource } from '../scripts/schema-source.js';

it('src/schema.ts is generated from the current OpenAPI document (else: npm run client:generate)', async () => {
  expect(readFileSync(SCHEMA_FILE, 'utf8') === (await schemaSource()), 'run npm run client:generate').toBe(true);
});
