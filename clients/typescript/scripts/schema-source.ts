// The client's types, as TypeScript source, from the OpenAPI document the service serves (openapi-typescript).
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'yaml';
import { openApiYaml } from '@pra/core/contracts';

export const SCHEMA_FILE = new URL('../src/schema.ts', import.meta.url);

export async function schemaSource(): Promise<string> {
  // A field with a default may be left out of a request (a batch entry's page and pagesize).
  const ast = await openapiTS(parse(openApiYaml()), { defaultNonNullable: false });
  return `// Generated from the OpenAPI document by \`npm run client:generate\`; do not edit. CI fails when it is not current.\n${astToString(ast)}`;
}
