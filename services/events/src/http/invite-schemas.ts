import { Joi } from '@fieldhouse/config';
import { pageQuerySchema, pathUuidSchema, pageOf } from '@fieldhouse/http';
import type { InviteFilter, InvitePatch, NewInvite } from '../domain/invites.ts';
import { INVITE_TYPES } from '../domain/invite-types.ts';
import { emailSchema } from './staff-schemas.ts';

const typeInvite = Joi.string()
  .trim()
  .lowercase()
  .valid(...INVITE_TYPES)
  .messages({ 'any.only': `{{#label}} must be one of ${INVITE_TYPES.join(', ')}` });

/** People the code admits (a party, docs/events.md "Parties"): 1 to 100, default 1. */
const seats = Joi.number()
  .integer()
  .min(1)
  .max(100)
  .description('People the code admits (a party); default 1');

/** Optional names of the party's people, at most `seats`. */
const seatNames = Joi.array()
  .items(Joi.string().trim().min(1).max(255))
  .max(100)
  .description("Names of the party's people (optional, at most seats)");

/**
 * The path of one invite: `{event_id}` (a UUID, else 404 "No event with this id.") and
 * `{invite_id}`, read as is: the use case answers 404 "No invite with this id in this event."
 * when it is not a UUID or not an invite of the event, after the event's access check.
 */
export const inviteParams = Joi.object<{ event_id: string; invite_id: string }>({
  event_id: pathUuidSchema().required(),
  invite_id: Joi.string().required().meta({ format: 'uuid' }),
});

/** Invite creation (spec 2.3): `{nom, email, type_invite?}`; `type_invite` defaults to `standard`. */
export const createInviteSchema = Joi.object<NewInvite>({
  nom: Joi.string().trim().min(1).max(255).required(),
  email: emailSchema.required(),
  type_invite: typeInvite,
  seats,
  seat_names: seatNames,
}).id('InviteInput');

/** `PUT`/`PATCH .../invites/{invite_id}`: any of `nom`, `email`, `type_invite`, `revoked` (at least one). */
export const updateInviteSchema = Joi.object<InvitePatch>({
  nom: Joi.string().trim().min(1).max(255),
  email: emailSchema,
  type_invite: typeInvite,
  revoked: Joi.boolean().strict(),
  seats,
  seat_names: seatNames.allow(null),
})
  .min(1)
  .id('InvitePatch');

/** `GET .../invites` query: `page`, `per_page` (1 to 100, default 15) and the filters. */
export const listInvitesSchema = Joi.object<InviteFilter & { page: number; per_page: number }>({
  ...pageQuerySchema,
  search: Joi.string()
    .trim()
    .max(200)
    .allow('')
    .description('Part of nom or email (case-insensitive), or a whole code'),
  type_invite: Joi.string()
    .trim()
    .lowercase()
    .valid(...INVITE_TYPES),
  presence: Joi.boolean(),
  revoked: Joi.boolean(),
});

const isoInstant = Joi.string().isoDate();

/** The creation answer of spec 2.3: exactly `{id, nom, code_unique}`. */
export const InviteCreated = Joi.object({
  id: Joi.string().uuid().required(),
  nom: Joi.string().required(),
  code_unique: Joi.string().required().description('22 symbols of 23456789ABCDEFGHJKMNPQRSTWXYZ (~107 bits)'),
}).id('InviteCreated');

/** An invite as the API shows it (list, detail, update). Times are ISO 8601 UTC. */
export const Invite = Joi.object({
  id: Joi.string().uuid().required(),
  event_id: Joi.string().uuid().required(),
  nom: Joi.string().required(),
  email: Joi.string().required(),
  type_invite: Joi.string()
    .valid(...INVITE_TYPES)
    .required(),
  code_unique: Joi.string().required(),
  presence: Joi.boolean().required(),
  checked_in_at: isoInstant.allow(null).required(),
  scanne_par: Joi.string().allow(null).required(),
  revoked: Joi.boolean().required(),
  revoked_at: isoInstant.allow(null).required(),
  created_at: isoInstant.required(),
  updated_at: isoInstant.required(),
  seats: Joi.number().integer().min(1).required().description('People the code admits'),
  arrived: Joi.number().integer().min(0).required().description('People of the party arrived'),
  seat_names: Joi.array().items(Joi.string()).allow(null).required(),
  email_held: Joi.boolean()
    .required()
    .description('The invitation e-mail was held back at import, not sent yet'),
}).id('Invite');

/** The pagination envelope of spec 2.1 around invites. */
export const InvitePage = pageOf(Invite).id('InvitePage');

/** One presence change or check-in of an invite. */
export const HistoryEntry = Joi.object({
  id: Joi.number().integer().required(),
  action: Joi.string().valid('presence', 'checkin', 'exit').required(),
  presence: Joi.boolean().required(),
  previous: Joi.boolean().required(),
  scanne_par: Joi.string().allow(null).required(),
  user_id: Joi.number().integer().allow(null).required(),
  user_name: Joi.string().allow(null).required(),
  scanner_device: Joi.object({ id: Joi.string().uuid().required(), name: Joi.string().required() })
    .allow(null)
    .required()
    .description('The scanner device that made the change; null when a user did (user_id)'),
  device: Joi.string().allow(null).required(),
  nonce: Joi.string().allow(null).required(),
  gate_id: Joi.string()
    .uuid()
    .allow(null)
    .required()
    .description('The gate of a scan; null: implicit entrance or by hand'),
  direction: Joi.string()
    .valid('entry', 'exit')
    .allow(null)
    .required()
    .description('null: presence set by hand'),
  people: Joi.number().integer().min(1).required().description('People of the party let in or out'),
  scanned_at: isoInstant.required(),
  recorded_at: isoInstant.required(),
}).id('HistoryEntry');
