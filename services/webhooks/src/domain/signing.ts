// Standard Webhooks signatures (https://www.standardwebhooks.com): the headers webhook-id, webhook-timestamp
// (Unix seconds) and webhook-signature `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the bytes of
// the secret after `whsec_` (base64). The reference libraries (npm `standardwebhooks`, Svix's) verify them as is.
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
/** 24 random bytes, as the reference implementations generate. */
const SECRET_BYTES = 24;

/** A new endpoint secret: `whsec_` and 24 random bytes in base64. */
export const newWebhookSecret = () => `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;

function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** The `v1,<base64>` signature of one message. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The three headers of one attempt, signed at `at` (each attempt is signed afresh with its own timestamp) with each
 * of `secrets`: the endpoint's, and the one it replaced while that is still valid (a rotation), space-separated as
 * Standard Webhooks writes several signatures; a receiver holding either secret verifies the delivery.
 */
export function signedHeaders(
  secrets: string | readonly string[],
  id: string,
  body: string,
  at: Date = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const all = typeof secrets === 'string' ? [secrets] : secrets;
  if (all.length === 0) throw new Error('a delivery is signed with at least one secret');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': all.map((s) => signature(s, id, timestamp, body)).join(' '),
  };
}
