// npm run admin -- <command>
//   create-account --email E --name N --tier T
//   issue-key --account ID|EMAIL [--marketplace]       prints the key once
//   list-keys --account ID|EMAIL                         prefixes only
//   disable-key --key ID | enable-key --key ID
//   grant --account ID|EMAIL (--plan P | --amount N) [--valid-days D]
//   set-limits --account ID|EMAIL [--rate N|none] [--quota N|none]   per-account limits (enterprise)
//   show --account ID|EMAIL                              balance and usage
// Uses the same domain code as the admin HTTP API, directly against PostgreSQL and Redis.
import { parseArgs } from 'node:util';
import { ApiError } from '@pra/core/errors';
import { createPool, createRedis, ensureDatabase, redisReady } from '@pra/platform';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, redisClusterNodes, redisTarget } from '@pra/core/config';
import { migrateBilling } from './data/migrate.js';
import { layoutFor } from './data/redis-layout.js';
import {
  createAccount,
  findAccount,
  grantCredits,
  issueKey,
  listKeys,
  setAccountLimits,
  setKeyStatus,
} from './domain/accounts.js';
import { usageReport } from './domain/usage-report.js';

const USAGE = `usage: npm run admin -- <create-account --email E --name N --tier T | issue-key --account A [--marketplace] |
  list-keys --account A | disable-key --key K | enable-key --key K | grant --account A (--plan P | --amount N) [--valid-days D] |
  set-limits --account A [--rate N|none] [--quota N|none] | show --account A>`;

async function main() {
  const { positionals, values: v } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      tier: { type: 'string' },
      account: { type: 'string' },
      key: { type: 'string' },
      plan: { type: 'string' },
      amount: { type: 'string' },
      rate: { type: 'string' },
      quota: { type: 'string' },
      'valid-days': { type: 'string' },
      marketplace: { type: 'boolean', default: false },
    },
  });
  const need = (name: string, value: string | undefined) => {
    if (!value) throw new ApiError('missing_parameter', `--${name} is required\n${USAGE}`);
    return value;
  };
  const dbUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  await ensureDatabase(dbUrl);
  const pool = createPool(dbUrl, 2, 'admin-cli');
  const redis = createRedis(
    redisTarget({
      REDIS_URL: process.env.REDIS_URL ?? DEFAULT_REDIS_URL,
      REDIS_CLUSTER_NODES: redisClusterNodes(process.env),
    }),
    'producer',
  );
  redis.on('error', () => {});
  try {
    await migrateBilling(pool);
    await redisReady(redis);
    const d = { pool, redis, layout: layoutFor(redis, process.env.REDIS_PREFIX ?? 'pra:') };
    const account = async () => (await findAccount(d, need('account', v.account))).id;
    switch (positionals[0]) {
      case 'create-account': {
        const a = await createAccount(d, {
          email: need('email', v.email),
          name: need('name', v.name),
          tier: need('tier', v.tier),
        });
        console.log(`account ${a.id} created: ${a.email} (${a.tier})`);
        break;
      }
      case 'issue-key': {
        const k = await issueKey(d, await account(), v.marketplace ? 'marketplace' : 'standard');
        console.log(`key ${k.keyId} issued; it is shown only now, store it safely:`);
        console.log(`API_KEY=${k.key}`);
        break;
      }
      case 'list-keys':
        for (const k of await listKeys(d, await account()))
          console.log(`${k.id}\t${k.prefix}...\t${k.kind}\t${k.status}\t${k.created_at.toISOString()}`);
        break;
      case 'disable-key':
      case 'enable-key': {
        const status = positionals[0] === 'disable-key' ? 'disabled' : 'active';
        await setKeyStatus(d, Number(need('key', v.key)), status);
        console.log(`key ${v.key} ${status}`);
        break;
      }
      case 'grant': {
        const g = await grantCredits(d, await account(), {
          plan: v.plan,
          amount: v.amount !== undefined ? Number(v.amount) : undefined,
          validDays: v['valid-days'] !== undefined ? Number(v['valid-days']) : undefined,
        });
        console.log(`granted ${g.amount} credits (grant ${g.grantId}), expiring ${g.expiresAt.toISOString()}`);
        break;
      }
      case 'set-limits': {
        const limit = (v?: string) => (v === undefined || v === 'none' ? null : Number(v));
        await setAccountLimits(d, await account(), { ratePerMinute: limit(v.rate), dailyQuota: limit(v.quota) });
        console.log(`limits set: ${v.rate ?? 'tier default'} per minute, ${v.quota ?? 'tier default'} per day`);
        break;
      }
      case 'show':
        console.log(JSON.stringify(await usageReport(pool, await account()), null, 2));
        break;
      default:
        console.error(USAGE);
        process.exitCode = 2;
    }
  } finally {
    redis.disconnect();
    await pool.end();
  }
}

main().catch((err: Error) => {
  console.error(`admin: ${err.message}`);
  process.exit(err instanceof ApiError && err.status < 500 ? 2 : 1);
});
