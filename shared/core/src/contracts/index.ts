export { z } from './zod.js';
export * from './record.js';
export * from './envelopes.js';
export * from './account.js';
export * from './queries.js';
export * from './area-geometry.js';
export { buildOpenApiDocument, openApiYaml, API_VERSION } from './openapi.js';
export * from './endpoints.js';
export { renderEnvelope, renderStatus, type EnvelopeStatus } from './render.js';
