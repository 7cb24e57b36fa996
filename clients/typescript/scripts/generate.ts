// npm run client:generate: rewrites src/schema.ts from the OpenAPI document.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCHEMA_FILE, schemaSource } from './schema-source.js';

writeFileSync(SCHEMA_FILE, await schemaSource());
console.log(`wrote ${fileURLToPath(SCHEMA_FILE)}`);
