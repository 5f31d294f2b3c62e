import Joi from 'joi';

/** Routing keys published by the gateway's identity module on the `identity` exchange. */
export const IdentityEvents = {
  userCreated: 'user.created',
  userUpdated: 'user.updated',
} as const;

/** Payload of `user.created` and `user.updated`: the public profile, never credentials. */
export interface UserPayload {
  id: number;
  name: string;
  email: string;
  /**
   * The user's language for e-mails and pages, `en` or `fr`; null or absent when never chosen
   * (then English). Absent in events written before issue 32.
   */
  language?: string | null;
  /** The user's IANA time zone (`Europe/Paris`) for times in e-mails; null or absent: UTC. */
  time_zone?: string | null;
  /**
   * Whether the user's current address was verified by its e-mailed link (docs/identity.md,
   * "Accounts"); absent in events written before issue 32. Grant nothing to an address (an
   * invitation by e-mail) on an unverified one: anyone can register with any address.
   */
  email_verified?: boolean;
  /** ISO 8601 UTC; services keep the newest version they have seen. */
  updated_at: string;
}

export const userPayloadSchema = Joi.object<UserPayload>({
  id: Joi.number().integer().positive().required(),
  name: Joi.string().required(),
  email: Joi.string().required(),
  language: Joi.string().max(8).allow(null),
  time_zone: Joi.string().max(64).allow(null),
  email_verified: Joi.boolean(),
  updated_at: Joi.string().isoDate().required(),
});
