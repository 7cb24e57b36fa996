// The client's types, as TypeScript source, from the OpenAPI document the service serves (openapi-typescript).
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'yaml';
import { openApiYaml } from '@pra/core/contracts';

export const SCHEMA_FILE = new URL('../src/schema.ts', import.meta.url);

export async function schemaSource(): Promise<string> {
  const ast = await openapiTS(parse(openApiYaml()));
  return `// Generated from the OpenAPI document by \`npm run client:generate\`; do not edit. CI fails when it is not current.\n${astToString(ast)}`;
}
