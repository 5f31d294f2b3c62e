import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * A new signing secret in the Standard Webhooks form: `whsec_` and 24 random bytes in base64
 * (32 characters). Shown to the subscriber once; receivers pass it to a `standardwebhooks`
 * library as is.
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Whether a string has the shape of a secret made by {@link newWebhookSecret}. */
export const isWebhookSecret = (s: string): boolean => /^whsec_[A-Za-z0-9+/]{32}$/.test(s);

/** The three headers of a signed delivery (Standard Webhooks specification). */
export interface SignatureHeaders {
  'webhook-id': string;
  /** Unix time in seconds, as a decimal string. */
  'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret, separated by spaces. */
  'webhook-signature': string;
}

/**
 * Signs `body` (the exact bytes sent) with every secret given: the current one and, during a
 * rotation's overlap, the previous one, so a receiver verifying with either accepts it. Uses
 * the `standardwebhooks` reference library, the one receivers verify with.
 */
export function signatureHeaders(
  messageId: string,
  at: Date,
  body: string,
  secrets: string[],
): SignatureHeaders {
  if (!secrets.length) throw new Error('signatureHeaders needs at least one secret');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(' '),
  };
}
