// The autocomplete service: the HTTP app and the indexer (rebuild when the index is empty, catch-up on a schedule).
import { closeRedis, createPool, redisReady, runInternalServer, runServer, storesReady } from '@pra/platform';
import { clientTimeouts, redisTarget } from '@pra/core/config';
import { logTo } from '@pra/platform/telemetry';
import { RedisCallCounter, RedisCreditMeter, layoutFor, requestPathClients } from '@pra/account-billing/client';
import { createAutocompleteApp } from './app.js';
import { loadAutocompleteConfig } from './config.js';
import { migrateSearch } from './data/migrate.js';
import { PostgresSearchIndex } from './data/postgres-index.js';
import { TypesenseSearchIndex } from './data/typesense-index.js';
import type { SearchIndex } from './domain/search-index.js';
import { Indexer, lastIndexedId } from './indexing/index-queue.js';

const config = loadAutocompleteConfig();
const log = logTo();
// Requests get a pool whose every wait has a limit; the indexer's long statements get their own, without.
const { redis, auth, pool, reads, closePools } = requestPathClients(config, 'autocomplete');
const indexPool = createPool(config.DATABASE_URL, config.DB_WORKER_POOL_SIZE, 'autocomplete-indexer');
await migrateSearch(indexPool, (l) => log({ msg: l }));
// The index the requests search, and the one the indexer writes (the same one for Typesense).
let index: SearchIndex;
let writeIndex: SearchIndex;
if (config.SEARCH_BACKEND === 'typesense') {
  const ts = TypesenseSearchIndex.connect(config.TYPESENSE_URL!, config.TYPESENSE_API_KEY!, config.TYPESENSE_ALIAS);
  await ts.ensureCollection();
  index = writeIndex = ts;
} else {
  index = new PostgresSearchIndex(pool, undefined, reads);
  writeIndex = new PostgresSearchIndex(indexPool);
}
await redisReady(redis);
const indexer = new Indexer({
  pool: indexPool,
  index: writeIndex,
  redisUrl: redisTarget(config),
  queuePrefix: layoutFor(redis, config.REDIS_PREFIX).queuePrefix,
  log,
});
// The rebuild is asked for before the catch-up schedule starts: a catch-up defers to a waiting rebuild, so a store
// loaded in bulk (its change feed naming every record) is indexed once, not by the feed and then again.
if (config.SEARCH_BACKEND === 'postgres' && (await lastIndexedId(indexPool)) === 0) {
  log({ msg: 'index empty: full rebuild requested' });
  await indexer.requestRebuild();
}
await indexer.start();
const app = createAutocompleteApp({
  index,
  meter: new RedisCreditMeter(redis, config.REDIS_PREFIX, { outboxLimit: config.BILLING_OUTBOX_LIMIT }),
  calls: new RedisCallCounter(redis, config.REDIS_PREFIX),
  auth,
});
await runInternalServer(config, storesReady(pool, redis));
await runServer(
  app,
  config.AUTOCOMPLETE_PORT,
  config.AUTOCOMPLETE_HOST,
  'autocomplete',
  async () => {
    await indexer.stop();
    await closeRedis(redis);
    await Promise.all([closePools(), indexPool.end()]);
  },
  clientTimeouts(config),
);
