import nodemailer, { type Transporter } from 'nodemailer';
import {
  EMAIL_REQUESTED,
  emailRequestedSchema,
  type EmailRequested,
  type Envelope,
} from '@fieldhouse/contracts';
import type { Logger } from '@fieldhouse/logger';
import { PermanentError, processOnce, startConsumer, type Broker } from '@fieldhouse/messaging';

export interface Mailer {
  /** Sends one e-mail; rejects when the SMTP server refuses it or cannot be reached. */
  send: (email: EmailRequested, messageId: string) => Promise<void>;
  close: () => void;
}

/**
 * An SMTP mailer (nodemailer). `smtpUrl` is `smtp://user:pass@host:port` (or `smtps://`);
 * `from` is the sender, e.g. `Fieldhouse <no-reply@example.org>`. The envelope message id
 * becomes the e-mail's `Message-ID`, so a resend after a crash is recognisable.
 */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  return {
    send: async (email, messageId) => {
      await transport.sendMail({
        from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        ...(email.html ? { html: email.html } : {}),
        messageId: `<${messageId}@fieldhouse>`,
        attachments: email.attachments?.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.contentBase64, 'base64'),
          ...(a.cid ? { cid: a.cid } : {}),
        })),
      });
    },
    close: () => transport.close(),
  };
}

/**
 * Records which e-mail messages were sent. `runOnce(id, send)` runs `send` unless `id` was
 * recorded, and records it only when `send` succeeds, atomically with respect to other workers
 * (a PostgreSQL service uses messaging's `processOnce`; MongoDB a unique index).
 */
export interface SentLog {
  runOnce: (messageId: string, send: () => Promise<void>) => Promise<boolean>;
}

/**
 * The sent log of a PostgreSQL service: messaging's `processed_messages` table, rows keyed by
 * (`consumer`, message id), recorded in the transaction that sends.
 */
export const processedMessagesLog = (db: Parameters<typeof processOnce>[0], consumer: string): SentLog => ({
  runOnce: (messageId, send) => processOnce(db, 'processed_messages', consumer, messageId, send),
});

export interface EmailWorkerOptions {
  broker: Broker;
  mailer: Mailer;
  sentLog: SentLog;
  logger: Logger;
  /** The producing service's exchange; its `email.requested` messages are consumed. */
  exchange: string;
  /** Queue name, e.g. `events.email`. */
  queue: string;
  /** Backoff delays between attempts (ms); after the last one the job is dead-lettered. */
  retryDelaysMs?: number[];
}

/**
 * Consumes `email.requested` jobs and sends them over SMTP: retries with backoff when the SMTP
 * server fails, a dead-letter queue after the last attempt, and never two sends for one message
 * id (the sent log). An invalid job goes straight to the dead-letter queue.
 */
export function startEmailWorker(opts: EmailWorkerOptions) {
  return startConsumer(opts.broker, {
    queue: opts.queue,
    bindings: [{ exchange: opts.exchange, pattern: EMAIL_REQUESTED }],
    logger: opts.logger,
    ...(opts.retryDelaysMs ? { retryDelaysMs: opts.retryDelaysMs } : {}),
    handler: async (message: Envelope) => {
      const { value, error } = emailRequestedSchema.validate(message.data);
      if (error) throw new PermanentError(`invalid e-mail job: ${error.message}`);
      const sent = await opts.sentLog.runOnce(message.id, () => opts.mailer.send(value, message.id));
      opts.logger.info(sent ? 'e-mail sent' : 'e-mail already sent; skipped', {
        messageId: message.id,
        reason: value.reason,
        recipients: value.to.length,
      });
    },
  });
}
