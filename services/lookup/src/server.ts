import { createPool, runServer } from '@pra/shared/platform';
import { createLookupApp } from './app.js';
import { loadLookupConfig } from './config.js';

const config = loadLookupConfig();
const pool = createPool(config.DATABASE_URL, config.LOOKUP_DB_POOL, 'lookup');
await runServer(createLookupApp({ pool }), config.LOOKUP_PORT, config.LOOKUP_HOST, 'lookup', () => pool.end());
