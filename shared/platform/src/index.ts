// The I/O half of the shared code: express, pg, ioredis and the servers the services run in. The pure half
// (contracts, errors, auth, config) is @pra/core.
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
