export * from './errors.js';
export * from './config.js';
export * from './db.js';
export * from './migrations.js';
export * from './http.js';
export { listenServer, runInternalServer, runServer, storesReady } from './server.js';
export * from './redis.js';
export * from './api-keys.js';
export * from './identity.js';
