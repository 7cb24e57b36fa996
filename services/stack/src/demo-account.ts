// The demo account of the embedded default: starter tier, 10,000 credits on first run. Its key is kept in
// .data/ (git-ignored, mode 0600) so that every npm start can print a key that works; a lost or disabled one is
// replaced by a new key.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRedis, redisReady, type Pool } from '@pra/platform';
import { KeyCache, redisLayout } from '@pra/account-billing/client';
import { createAccount, findAccount, grantCredits, issueKey } from '@pra/account-billing/domain';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_CREDITS = 10_000;

export async function ensureDemoAccount(
  pool: Pool,
  redisUrl: string,
  prefix: string,
  keyFile: string,
  log: (l: string) => void,
): Promise<string> {
  const redis = createRedis(redisUrl, 'producer');
  redis.on('error', () => {});
  try {
    await redisReady(redis);
    const d = { pool, redis, layout: redisLayout(prefix) };
    let account = await findAccount(d, DEMO_EMAIL).catch(() => null);
    if (!account) {
      account = await createAccount(d, { email: DEMO_EMAIL, name: 'Demo account', tier: 'starter' });
      await grantCredits(d, account.id, { amount: DEMO_CREDITS, validDays: 30 });
      log(`created the demo account (starter tier, ${DEMO_CREDITS.toLocaleString('en-US')} credits)`);
    }
    if (existsSync(keyFile)) {
      const saved = readFileSync(keyFile, 'utf8').trim();
      const entry = await new KeyCache(redis, prefix, 0).lookup(saved);
      if (entry?.status === 'active' && entry.accountId === account.id) return saved;
    }
    const { key } = await issueKey(d, account.id);
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    log('issued a new demo API key');
    return key;
  } finally {
    redis.disconnect();
  }
}
