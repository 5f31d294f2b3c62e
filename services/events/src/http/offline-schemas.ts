import { Joi } from '@fieldhouse/config';

/** `?page&limit` of the offline download: the page token of the previous page, and the page size. */
export const snapshotQuery = Joi.object<{ page?: string; limit?: number }>({
  page: Joi.string().max(512).description('Token of the next page, as the previous page gave it (opaque)'),
  limit: Joi.number().integer().min(1).max(10_000).default(5000).description('Invitees per page'),
});

/** `?cursor&limit` of the changes feed. */
export const changesQuery = Joi.object<{ cursor: string; limit?: number }>({
  cursor: Joi.string()
    .max(512)
    .required()
    .description('The cursor of the last page of the download, or of the previous changes (opaque)'),
  limit: Joi.number().integer().min(1).max(10_000).default(5000).description('Changes per answer'),
});

const OfflineInvitee = Joi.object({
  id: Joi.string().uuid().required(),
  nom: Joi.string().required(),
  type_invite: Joi.string().required(),
  code_hash: Joi.string()
    .required()
    .description(
      'First 16 bytes of SHA-256 of the canonical code (upper case, no spaces or dashes), base64url',
    ),
  status: Joi.string().valid('valid', 'checked_in', 'revoked').required(),
  checked_in_at: Joi.string().isoDate().allow(null).required(),
  scanne_par: Joi.string().allow(null).required(),
  seats: Joi.number().integer().min(1).max(100).required().description('People the code admits (a party)'),
  arrived: Joi.number()
    .integer()
    .min(0)
    .max(100)
    .required()
    .description('People of the party who came in (status `checked_in` once above 0)'),
}).id('OfflineInvitee');

export const OfflineSnapshotPage = Joi.object({
  invitees: Joi.array().items(OfflineInvitee).required(),
  next_page: Joi.string().allow(null).required().description('Token of the next page; null on the last'),
  cursor: Joi.string().allow(null).required().description('On the last page: the cursor of the changes feed'),
  public_key: Joi.string()
    .allow(null)
    .required()
    .description('The event’s Ed25519 public key (raw 32 bytes, base64url); null when signed codes are off'),
}).id('OfflineSnapshotPage');

export const OfflineChanges = Joi.object({
  changes: Joi.array()
    .items(OfflineInvitee)
    .required()
    .description('Invitees new or changed, in their state now'),
  deleted: Joi.array().items(Joi.string().uuid()).required().description('Ids of invitees deleted'),
  cursor: Joi.string().required().description('Where to read the next changes from'),
  more: Joi.boolean().required().description('More changes wait: ask again at once'),
}).id('OfflineChanges');

export const SigningKeys = Joi.object({
  algorithm: Joi.string().valid('Ed25519').required(),
  public_key: Joi.string().required().description('Raw 32-byte public key, base64url'),
  revoked: Joi.array().items(Joi.string().uuid()).required().description('Ids of the revoked invites'),
}).id('SigningKeys');

export const SignedCode = Joi.object({
  invite_id: Joi.string().uuid().required(),
  signed_code: Joi.string()
    .required()
    .description('`FH1` and base32 of the invite id, Ed25519 signature and code'),
  public_key: Joi.string().required(),
}).id('SignedCode');

export const EventAccessList = Joi.object({
  events: Joi.array()
    .items(
      Joi.object({
        event_id: Joi.string().uuid().required(),
        role: Joi.string().valid('owner', 'staff').required(),
        permissions: Joi.array()
          .items(Joi.string().valid('event.read', 'event.manage', 'event.scan'))
          .required()
          .description('What the role may do (docs/events.md, "Who may do what")'),
      }).id('EventAccess'),
    )
    .required(),
}).id('EventAccessList');
