import { randomUUID } from 'node:crypto';
import Joi from 'joi';

/** The topic exchanges, one per producing service (design.md, "Messaging"). */
export const Exchanges = {
  identity: 'identity',
  collection: 'collection',
  polls: 'polls',
  events: 'events',
} as const;
export type ExchangeName = (typeof Exchanges)[keyof typeof Exchanges];

/**
 * Every message body: a CloudEvents-like envelope. `id` is unique per event and is the AMQP
 * `messageId`, which consumers record to process each message once.
 */
export interface Envelope<T = unknown> {
  id: string;
  /** Routing key and event name, e.g. `user.created`. */
  type: string;
  /** The producing service (its exchange). */
  source: ExchangeName;
  /** ISO 8601 UTC time the event happened. */
  time: string;
  data: T;
}

/** Builds an envelope with a fresh UUID and the current time. */
export function envelope<T>(source: ExchangeName, type: string, data: T): Envelope<T> {
  return { id: randomUUID(), type, source, time: new Date().toISOString(), data };
}

export const envelopeSchema = Joi.object({
  id: Joi.string().min(1).max(200).required(),
  type: Joi.string().min(1).max(200).required(),
  source: Joi.string()
    .valid(...Object.values(Exchanges))
    .required(),
  time: Joi.string().isoDate().required(),
  data: Joi.any().required(),
});
