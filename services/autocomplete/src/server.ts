// The autocomplete service: the HTTP app and the indexer (rebuild when the index is empty, catch-up on a schedule).
import { createPool, createRedis, KeyCache, redisReady, runInternalServer, runServer, storesReady } from '@pra/shared/platform';
import { logTo } from '@pra/shared/telemetry';
import { CreditCharger, redisLayout } from '@pra/account-billing/billing';
import { createAutocompleteApp } from './app.js';
import { loadAutocompleteConfig } from './config.js';
import { migrateSearch } from './data/migrate.js';
import { PostgresSearchIndex } from './data/postgres-index.js';
import { TypesenseSearchIndex } from './data/typesense-index.js';
import type { SearchIndex } from './domain/search-index.js';
import { Indexer, lastIndexedId } from './indexing/index-queue.js';

const config = loadAutocompleteConfig();
const log = logTo();
const pool = createPool(config.DATABASE_URL, 16, 'autocomplete');
await migrateSearch(pool, (l) => log({ msg: l }));
let index: SearchIndex;
if (config.SEARCH_BACKEND === 'typesense') {
  const ts = TypesenseSearchIndex.connect(config.TYPESENSE_URL!, config.TYPESENSE_API_KEY!, config.TYPESENSE_ALIAS);
  await ts.ensureCollection();
  index = ts;
} else {
  index = new PostgresSearchIndex(pool);
}
const redis = createRedis(config.REDIS_URL, 'producer');
redis.on('error', () => {});
await redisReady(redis);
const indexer = new Indexer({ pool, index, redisUrl: config.REDIS_URL, queuePrefix: redisLayout(config.REDIS_PREFIX).queuePrefix, log });
await indexer.start();
if (config.SEARCH_BACKEND === 'postgres' && (await lastIndexedId(pool)) === 0) {
  log({ msg: 'index empty: full rebuild requested' });
  await indexer.requestRebuild();
}
const app = createAutocompleteApp({ index, keys: new KeyCache(redis, config.REDIS_PREFIX), charger: new CreditCharger(redis, config.REDIS_PREFIX), gatewayKey: config.GATEWAY_HMAC_KEY });
await runInternalServer(config, storesReady(pool, redis));
await runServer(app, config.AUTOCOMPLETE_PORT, config.AUTOCOMPLETE_HOST, 'autocomplete', async () => {
  await indexer.stop();
  redis.disconnect();
  await pool.end();
});
