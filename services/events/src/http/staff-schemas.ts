import { Joi } from '@fieldhouse/config';
import { idSchema, pathUuidSchema } from '@fieldhouse/http';

/** An e-mail address in a body: trimmed, lower-cased, at most 320 characters. */
export const emailSchema = Joi.string().trim().lowercase().max(320).email({ tlds: false });

/** Staff grant: `{user_id}` or `{email}` (exactly one). */
export const staffSchema = Joi.object<{ user_id: number } | { email: string }>({
  user_id: idSchema(),
  email: emailSchema,
})
  .xor('user_id', 'email')
  .id('StaffGrant');

/**
 * The path of one staff member: `{event_id}` (a UUID, else 404) and `{user_id}`, read as is:
 * the use case answers 404 naming `user_id` when it is not an integer from 1 to 2^31-1, after
 * the access check (so staff get 403 and outsiders 404 whatever the id).
 */
export const staffMemberParams = Joi.object<{ event_id: string; user_id: string }>({
  event_id: pathUuidSchema().required(),
  user_id: Joi.string().required().description('User id, an integer from 1 to 2147483647'),
});

/** A staff member of an event (check-in role), with their name and e-mail as last known (null if unknown). */
export const Staff = Joi.object({
  user_id: Joi.number().integer().required(),
  name: Joi.string().allow(null).required(),
  email: Joi.string().allow(null).required(),
  granted_at: Joi.string().isoDate().required(),
}).id('Staff');
