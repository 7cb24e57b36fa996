// Signatures are checked with the reference method: the npm `standardwebhooks` package's Webhook.verify.
import { Webhook } from 'standardwebhooks';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signedHeaders } from '../src/domain/signing.js';

describe('Standard Webhooks signing', () => {
  it('makes whsec_ secrets of 24 random bytes in base64, as the reference libraries expect', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('signs any body so that Webhook.verify accepts it, and only it', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.nat(), (value, n) => {
        const body = JSON.stringify(value);
        const secret = newWebhookSecret();
        const headers = signedHeaders(secret, `evt_${n}`, body);
        expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
        expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
        expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
        expect(() =>
          new Webhook(secret).verify(body, { ...headers, 'webhook-id': `${headers['webhook-id']}x` }),
        ).toThrow();
      }),
      { numRuns: 50 },
    );
  });

  it('puts the attempt time in webhook-timestamp, which the reference refuses when old', () => {
    const secret = newWebhookSecret();
    const body = '{"type":"webhook.test"}';
    const old = signedHeaders(secret, 'evt_1', body, new Date(Date.now() - 3_600_000));
    expect(old['webhook-timestamp']).toBe(String(Math.floor((Date.now() - 3_600_000) / 1000)));
    expect(() => new Webhook(secret).verify(body, old)).toThrow(/too old/i);
  });
});
