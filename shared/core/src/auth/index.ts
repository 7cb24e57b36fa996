export * from './signature.js';
export * from './key-decision.js';
export * from './api-keys.js';
export * from './marketplace-subscriber.js';
