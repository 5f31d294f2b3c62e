import type { EmailRequested } from '@fieldhouse/contracts';
import type { DisabledSubscription } from './types.ts';

const REASONS = {
  gone: 'the receiver answered 410 Gone, which asks us to stop',
  failing: 'its deliveries kept failing after every retry',
} as const;

/**
 * The e-mail telling the owners of a scope that one of its webhooks was disabled by its
 * deliveries (410, or failing in a row): what, why, and how to turn it back on (PATCH `active`),
 * then to redeliver what failed meanwhile. `where` names the scope (`the event "Gala"`).
 */
export function disabledWebhookEmail(to: string[], s: DisabledSubscription, where: string): EmailRequested {
  const why = REASONS[s.reason];
  return {
    to,
    subject: `Webhook disabled: ${s.url}`,
    text:
      `The webhook ${s.url} of ${where} was disabled because ${why}.\n\n` +
      'No more deliveries are attempted until it is turned back on (set "active" to true on the webhook, ' +
      'or in the console). Deliveries that failed meanwhile stay in its delivery log and can be sent again ' +
      '("redeliver-failed").\n\n' +
      `Webhook id: ${s.id}\n`,
    reason: 'webhook-disabled',
  };
}
