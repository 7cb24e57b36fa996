// Writes the generated OpenAPI document: `npm run openapi -- [--out FILE] [--server URL]` (stdout by default).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { openApiYaml } from './openapi.js';

const { values } = parseArgs({ options: { out: { type: 'string' }, server: { type: 'string' } } });
const yaml = openApiYaml(values.server);
if (values.out) {
  mkdirSync(dirname(values.out), { recursive: true });
  writeFileSync(values.out, yaml);
  console.error(`wrote ${values.out}`);
} else {
  process.stdout.write(yaml);
}
