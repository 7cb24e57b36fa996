// What other services use of account-billing: the credit meter, the page-charging rule, the key cache reader and
// the Redis layout they share with account-billing's workers.
export * from './credit-meter.js';
export * from './charge-page.js';
export * from './call-counter.js';
export * from './key-cache.js';
export * from './service-clients.js';
