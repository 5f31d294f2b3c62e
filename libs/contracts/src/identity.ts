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
  /** ISO 8601 UTC; services keep the newest version they have seen. */
  updated_at: string;
}

export const userPayloadSchema = Joi.object<UserPayload>({
  id: Joi.number().integer().positive().required(),
  name: Joi.string().required(),
  email: Joi.string().required(),
  updated_at: Joi.string().isoDate().required(),
});
