import type { SentLog } from '@fieldhouse/mail';
import type { Collections } from './collections.ts';
import { isDuplicateKey } from './collections.ts';

/**
 * The mail worker's record of sent e-mails in MongoDB (no transactions): a message id is first
 * claimed (`state: sending`, unique `_id`), marked `sent` after SMTP accepted it, and released
 * when sending failed. A claim older than `staleMs` (a worker died mid-send) may be taken over,
 * so a crash between the SMTP answer and the `sent` mark can send twice (at-least-once).
 */
export function mongoSentLog(c: Collections, staleMs = 60_000): SentLog {
  return {
    runOnce: async (messageId, send) => {
      try {
        await c.sentMail.insertOne({ _id: messageId, state: 'sending', claimed_at: new Date() });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const taken = await c.sentMail.findOneAndUpdate(
          { _id: messageId, state: 'sending', claimed_at: { $lt: new Date(Date.now() - staleMs) } },
          { $set: { claimed_at: new Date() } },
        );
        if (!taken) {
          const doc = await c.sentMail.findOne({ _id: messageId });
          if (doc?.state === 'sent') return false;
          throw new Error(`e-mail ${messageId} is being sent by another worker`, { cause: err });
        }
      }
      try {
        await send();
      } catch (err) {
        await c.sentMail.deleteOne({ _id: messageId, state: 'sending' });
        throw err;
      }
      await c.sentMail.updateOne({ _id: messageId }, { $set: { state: 'sent' } });
      return true;
    },
  };
}
