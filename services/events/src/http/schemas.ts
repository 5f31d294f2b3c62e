import { Joi } from '@fieldhouse/config';
import { idSchema } from '@fieldhouse/http';
import { INVITE_TYPES } from '../domain/invite-types.ts';
import { isLocalDateTime } from '../domain/dates.ts';

/** A date-time without zone (spec 2.3), kept exactly as given. */
const localDateTime = Joi.string()
  .custom((v: string, helpers) => (isLocalDateTime(v) ? v : helpers.error('any.invalid')))
  .messages({ 'any.invalid': '{{#label}} must be a date-time without zone, e.g. 2026-06-01T18:30:00' });

const eventFields = {
  name: Joi.string().trim().min(1).max(255),
  description: Joi.string().allow('').max(10_000),
  start_date: localDateTime,
  end_date: localDateTime.allow(null),
  location: Joi.string().trim().min(1).max(500),
};

/** `POST /api/events` (design.md): `{name, description?, start_date, end_date?, location}`. */
export const createEventSchema = Joi.object({
  ...eventFields,
  name: eventFields.name.required(),
  start_date: eventFields.start_date.required(),
  location: eventFields.location.required(),
});

/** `PUT`/`PATCH /api/events/{event_id}`: any subset of the creation fields (at least one). */
export const updateEventSchema = Joi.object(eventFields).min(1);

/** `GET /api/events` query: `when` = `upcoming` | `past` | `all` (default). */
export const listEventsSchema = Joi.object({
  when: Joi.string().valid('upcoming', 'past', 'all').default('all'),
});

const email = Joi.string().trim().lowercase().max(320).email({ tlds: false });
const typeInvite = Joi.string()
  .trim()
  .lowercase()
  .valid(...INVITE_TYPES)
  .messages({ 'any.only': `{{#label}} must be one of ${INVITE_TYPES.join(', ')}` });

/** Invite creation (spec 2.3): `{nom, email, type_invite?}`. */
export const createInviteSchema = Joi.object({
  nom: Joi.string().trim().min(1).max(255).required(),
  email: email.required(),
  type_invite: typeInvite,
});

/** `PUT`/`PATCH .../invites/{invite_id}`: any of `nom`, `email`, `type_invite`, `revoked`. */
export const updateInviteSchema = Joi.object({
  nom: Joi.string().trim().min(1).max(255),
  email,
  type_invite: typeInvite,
  revoked: Joi.boolean().strict(),
}).min(1);

/** `GET .../invites` filters (with `page`, `per_page`). */
export const listInvitesSchema = Joi.object({
  search: Joi.string().trim().max(200).allow(''),
  type_invite: Joi.string()
    .trim()
    .lowercase()
    .valid(...INVITE_TYPES),
  presence: Joi.boolean(),
  revoked: Joi.boolean(),
});

/** Staff grant: `{user_id}` or `{email}`. */
export const staffSchema = Joi.object({
  user_id: idSchema(),
  email,
}).xor('user_id', 'email');

const device = Joi.string().trim().max(255);
/** An ISO 8601 instant with zone; at most 5 minutes in the future (clock skew). */
const scannedAt = Joi.date()
  .iso()
  .max(Joi.ref('$latest'))
  .messages({ 'date.max': '{{#label}} is in the future' });

/** Presence (spec 2.3): `{presence, scanne_par}` plus optional `device`, `scanned_at`. */
export const presenceSchema = Joi.object({
  presence: Joi.boolean().strict().required(),
  scanne_par: Joi.string().trim().max(255).allow(''),
  device,
  scanned_at: scannedAt,
});

/** One scan: `{code_unique, nonce?, scanned_at?, device?, scanne_par?}`. */
export const scanSchema = Joi.object({
  code_unique: Joi.string().trim().min(1).max(64).required(),
  nonce: Joi.string().trim().min(1).max(128),
  scanned_at: scannedAt,
  device,
  scanne_par: Joi.string().trim().max(255).allow(''),
});

/** Most scans in one offline batch. */
export const MAX_BATCH = 500;

/** Offline batch: `{scans: [scan, ...]}`, 1 to {@link MAX_BATCH} items (each validated on its own). */
export const batchSchema = Joi.object({
  scans: Joi.array().items(Joi.any()).min(1).max(MAX_BATCH).required(),
  device,
});

/** Validation context: the latest acceptable scan time (now + 5 minutes). */
export const scanContext = () => ({ context: { latest: new Date(Date.now() + 5 * 60_000) } });
