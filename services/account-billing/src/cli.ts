// npm run admin -- <command>: accounts, keys and credits, with the same domain code as the admin HTTP API, directly
// against PostgreSQL and Redis: those npm start ran with (.data/local-stack.json) unless DATABASE_URL / REDIS_URL say
// otherwise. The commands are the table below (README "Commands" lists them; test/readme-blocks.test.ts keeps both
// in step). Only node:util and two small modules load before a command is known: `help`, or a mistake, answers at
// once, without pg, ioredis or telemetry.
import { parseArgs } from 'node:util';
import { ApiError } from '@pra/core/errors';
import { useLocalStack } from '@pra/platform/local-stack';
import { ADMIN_COMMANDS, adminUsage } from './admin-commands.js';
import { parseLimit } from './domain/account-limits.js';

const USAGE = adminUsage();

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
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = v.help ? 'help' : positionals[0];
  if (command === undefined || command === 'help' || !ADMIN_COMMANDS.some(([c]) => c === command)) {
    if (command !== undefined && command !== 'help') console.error(`admin: unknown command '${command}'`);
    (command === 'help' ? console.log : console.error)(USAGE);
    if (command !== 'help') process.exitCode = 2;
    return;
  }
  // set-limits' values, read before any store is reached: a limit the command cannot take is named at once.
  const limits =
    command === 'set-limits' ? { rate: parseLimit('rate', v.rate), quota: parseLimit('quota', v.quota) } : null;
  if (limits && limits.rate === undefined && limits.quota === undefined)
    throw new ApiError('missing_parameter', `set-limits needs --rate or --quota (or both)\n${USAGE}`);
  useLocalStack('admin', ['stores', 'prefix']);
  const [
    { createPool, createRedis, ensureDatabase, redisReady },
    { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, redisClusterNodes, redisTarget },
    { migrateBilling },
    { migrateWebhooks },
    { layoutFor },
    { createAccount, findAccount, grantCredits, issueKey, listKeys, setAccountLimits, setKeyStatus },
    { usageReport },
  ] = await Promise.all([
    import('@pra/platform'),
    import('@pra/core/config'),
    import('./data/migrate.js'),
    import('@pra/webhooks/migrate'),
    import('./data/redis-layout.js'),
    import('./domain/accounts.js'),
    import('./domain/usage-report.js'),
  ]);
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
    // `show` reports as /usage does, webhooks included.
    await migrateWebhooks(pool);
    await redisReady(redis);
    const d = { pool, redis, layout: layoutFor(redis, process.env.REDIS_PREFIX ?? 'pra:') };
    const account = async () => (await findAccount(d, need('account', v.account))).id;
    switch (command) {
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
        const status = command === 'disable-key' ? 'disabled' : 'active';
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
        const { rate, quota } = limits!;
        await setAccountLimits(d, await account(), { ratePerMinute: rate, dailyQuota: quota });
        const said = (n: number | null | undefined) =>
          n === undefined ? 'unchanged' : n === null ? "the tier's default" : String(n);
        console.log(`limits set: ${said(rate)} per minute, ${said(quota)} per day`);
        break;
      }
      case 'show':
        console.log(JSON.stringify(await usageReport(pool, await account()), null, 2));
        break;
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
