// API keys: shown once at creation, stored only as SHA-256; a visible prefix identifies them in listings.
import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'pra_live_';
const VISIBLE_CHARS = KEY_PREFIX.length + 6;

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = KEY_PREFIX + randomBytes(24).toString('base64url');
  return { key, prefix: key.slice(0, VISIBLE_CHARS), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
