// One zod instance, extended once with `.openapi()`, so every schema can carry its OpenAPI name and examples.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
