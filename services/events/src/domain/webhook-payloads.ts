import type { JsonSchema } from '@fieldhouse/http';
import type { WebhookKindDoc } from '@fieldhouse/webhooks';
import { INVITE_TYPES } from './invite-types.ts';
import type { EVENT_WEBHOOK_KINDS } from './webhooks.ts';

/**
 * The `data` of each kind of area C as JSON Schema (docs/webhooks.md, "Area C"), for the
 * service's AsyncAPI document. The shapes are those the triggers of migration 004-webhooks
 * build (`webhook_invite`, `webhook_invite_links`, `webhook_attendance`): every key is always
 * present, null where its column is nullable.
 */

const time: JsonSchema = { type: 'string', format: 'date-time' };
const uuid: JsonSchema = { type: 'string', format: 'uuid' };

/** `webhook_invite`: the invite as it was when the change was written. */
const invite: JsonSchema = {
  type: 'object',
  description: 'The invite as it was when the change was written.',
  required: [
    'id',
    'event_id',
    'nom',
    'email',
    'type_invite',
    'code_unique',
    'presence',
    'checked_in_at',
    'scanne_par',
    'revoked',
    'created_at',
  ],
  properties: {
    id: uuid,
    event_id: uuid,
    nom: { type: 'string', description: "The invitee's name." },
    email: { type: 'string', description: "The invitee's e-mail address." },
    type_invite: { type: 'string', enum: [...INVITE_TYPES] },
    code_unique: {
      type: 'string',
      description: "The invitee's ticket (what the QR code holds): treat it as a secret.",
    },
    presence: { type: 'boolean', description: 'Whether the invitee is present.' },
    checked_in_at: { ...time, type: ['string', 'null'], description: 'When last checked in; null if never.' },
    scanne_par: {
      type: ['string', 'null'],
      description: 'Who last checked the invitee in or set the presence (see `scanne_par` below).',
    },
    revoked: { type: 'boolean', description: 'Whether the invite is revoked.' },
    created_at: time,
  },
};

/** `webhook_invite_links`. */
const links: JsonSchema = {
  type: 'object',
  required: ['invite', 'event'],
  properties: {
    invite: { type: 'string', description: '`/api/events/{event_id}/invites/{invite_id}`' },
    event: { type: 'string', description: '`/api/events/{event_id}`' },
  },
};

/** `webhook_attendance`: an `attendance_log` row with its invite; `presence` and `previous` as the kind says. */
const attendance = (presence: JsonSchema, previous: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['invite', 'links', 'presence', 'previous', 'at', 'scanne_par', 'by'],
  properties: {
    invite,
    links,
    presence,
    previous,
    at: { ...time, description: 'The time of the scan or of the change (an offline scan keeps its own).' },
    scanne_par: {
      type: ['string', 'null'],
      description: "Who scanned: as given, else the user's name (or e-mail), or the scanner device's name.",
    },
    by: {
      type: 'object',
      description: 'Who made the change: a user, or a scanner device (its user is then null).',
      required: ['user_id', 'scanner_device_id'],
      properties: {
        user_id: { type: ['integer', 'null'], description: 'The user (owner or staff) who made it.' },
        scanner_device_id: {
          ...uuid,
          type: ['string', 'null'],
          description: 'The scanner device that made it.',
        },
      },
    },
  },
});

/** Every kind of {@link EVENT_WEBHOOK_KINDS}, documented (the type makes a missing kind a compile error). */
export const EVENT_WEBHOOK_PAYLOADS: Record<
  (typeof EVENT_WEBHOOK_KINDS)[number],
  Omit<WebhookKindDoc, 'kind'>
> = {
  'invite.created': {
    summary: 'An invite was added.',
    description:
      'Sent when an invite is added to the event, through the API or a CSV import (one per invite).',
    data: {
      type: 'object',
      required: ['invite', 'links'],
      properties: { invite, links },
    },
  },
  'invite.checked_in': {
    summary: 'A scan checked the invitee in.',
    description:
      'Sent when a scan checks an absent invitee in, whichever path made it: a signed-in user, a scanner ' +
      'device, an offline batch. A scan of an invitee already present sends nothing.',
    data: attendance(
      { type: 'boolean', const: true, description: 'Present now.' },
      { type: 'boolean', const: false, description: 'Absent before.' },
    ),
  },
  'invite.presence_changed': {
    summary: 'The presence was set by hand.',
    description:
      'Sent when the presence is set by hand (`PUT /api/events/{event_id}/invites/{invite_id}/presence`).',
    data: attendance(
      { type: 'boolean', description: 'The presence set.' },
      { type: 'boolean', description: 'The presence before.' },
    ),
  },
};
