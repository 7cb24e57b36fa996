// The I/O half of the shared code: express, pg, ioredis and the servers the services run in. The pure half
// (contracts, errors, auth, config) is @pra/core.
// Loading this index loads all of it, OpenTelemetry's SDK included (~0.5 s of a process's start). A process that
// needs only PostgreSQL (the ingest CLI, the migrations) imports `@pra/platform/db` and `@pra/platform/migrations`
// (the same modules this index exports); ingest's cli-import.test.ts checks what the CLI loads.
export * from './db.js';
export * from './read-pool.js';
export * from './migrations.js';
export * from './http.js';
export * from './endpoints.js';
export { listenServer, runInternalServer, runServer, storesReady } from './server.js';
export * from './redis.js';
export * from './identity.js';
export * from './idempotency.js';
export * from './conditional.js';
export { parseJsonBody, readBodyUpTo, readJsonBody } from './json-body.js';
