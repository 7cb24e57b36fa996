// The demo account of the embedded default: starter tier, 10,000 credits on first run. Its keys (a standard key, and
// a marketplace key for the marketplace example) are kept in .data/ (git-ignored, mode 0600) so that every npm
// start can print keys that work; a lost or disabled one is replaced by a new key. Whether a kept key still works
// is read from PostgreSQL, not from the Redis key cache: on a Redis that lost its data (or a new one) the cache is
// empty until account-billing reloads it, which happens after this runs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRedis, redisReady, type Pool } from '@pra/platform';
import { layoutFor } from '@pra/account-billing/client';
import { createAccount, findAccount, grantCredits, issueKey } from '@pra/account-billing/domain';
import { keyEntryFromDatabase } from '@pra/account-billing/key-cache-writer';
import { hashApiKey, type KeyKind } from '@pra/core/auth';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_CREDITS = 10_000;

export interface DemoKeys {
  /** The standard key: Authorization: Bearer. */
  apiKey: string;
  /** The marketplace key: X-Marketplace-Key behind the marketplace's proxy secret. */
  marketplaceKey: string;
}

/** True when the key exists in PostgreSQL, is active (its account too), of this kind, and the account's. */
async function keyWorks(pool: Pool, key: string, accountId: number, kind: KeyKind): Promise<boolean> {
  const entry = await keyEntryFromDatabase(pool, hashApiKey(key));
  return entry?.accountId === accountId && entry.kind === kind && entry.status === 'active';
}

export async function ensureDemoAccount(
  pool: Pool,
  redisUrl: string,
  prefix: string,
  keyFile: string,
  log: (l: string) => void,
  marketplaceKeyFile = `${keyFile.replace(/-api-key$/, '')}-marketplace-key`,
): Promise<DemoKeys> {
  const redis = createRedis(redisUrl, 'producer');
  redis.on('error', () => {});
  try {
    await redisReady(redis);
    const d = { pool, redis, layout: layoutFor(redis, prefix) };
    let account = await findAccount(d, DEMO_EMAIL).catch(() => null);
    if (!account) {
      account = await createAccount(d, { email: DEMO_EMAIL, name: 'Demo account', tier: 'starter' });
      await grantCredits(d, account.id, { amount: DEMO_CREDITS, validDays: 30 });
      log(`created the demo account (starter tier, ${DEMO_CREDITS.toLocaleString('en-US')} credits)`);
    }
    const accountId = account.id;
    const kept = async (file: string, kind: KeyKind): Promise<string> => {
      if (existsSync(file)) {
        const saved = readFileSync(file, 'utf8').trim();
        if (await keyWorks(pool, saved, accountId, kind)) return saved;
      }
      const { key } = await issueKey(d, accountId, kind);
      writeFileSync(file, `${key}\n`, { mode: 0o600 });
      log(`issued a new demo ${kind === 'marketplace' ? 'marketplace ' : ''}API key`);
      return key;
    };
    return { apiKey: await kept(keyFile, 'standard'), marketplaceKey: await kept(marketplaceKeyFile, 'marketplace') };
  } finally {
    redis.disconnect();
  }
}
