import type { Knex } from 'knex';
import { installGeneratedTriggers, type WebhookTrigger } from '@fieldhouse/webhooks';
import { changes } from '../domain/changes.ts';

/**
 * The triggers that capture area C's webhooks (docs/webhooks.md, "How events are captured") in
 * the transaction of the change, whichever path made it (the API, the scanner's group commit,
 * offline batches, CSV imports), once per statement, and only for events that have a
 * subscription taking the kind: which rows each kind comes from, and its payload SQL generated
 * from the list of changes (domain/changes.ts names the rows `n`, `i`, `l`).
 */
const webhookTriggers: WebhookTrigger[] = [
  {
    name: 'invites_webhooks',
    table: 'invites',
    on: 'INSERT',
    referencing: 'NEW TABLE AS new_invites',
    emits: [
      {
        kind: 'invite.created',
        from: 'new_invites n',
        reaches: 's.event_id = n.event_id',
        scope: `jsonb_build_object('event_id', n.event_id)`,
        data: changes.sql('invite.created'),
      },
    ],
  },
  {
    name: 'attendance_webhooks',
    table: 'attendance_log',
    on: 'INSERT',
    referencing: 'NEW TABLE AS new_log',
    emits: (
      [
        // An invitee's first arrival; re-entries through a gate, a party's later members and
        // exits (docs/events.md, "Gates") are not presence changes.
        ['invite.checked_in', `l.action = 'checkin' AND NOT l.previous`],
        ['invite.presence_changed', `l.action = 'presence'`],
      ] as const
    ).map(([kind, where]) => ({
      kind,
      from: 'new_log l JOIN invites i ON i.id = l.invite_id',
      where,
      reaches: 's.event_id = l.event_id',
      scope: `jsonb_build_object('event_id', l.event_id)`,
      data: changes.sql(kind),
      orderBy: 'l.id',
    })),
  },
];

/**
 * The repeatable step after the migrations: (re)installs {@link webhookTriggers} when their
 * generated SQL changed (libs/webhooks `installGeneratedTriggers`).
 */
export const webhookTriggersStep = {
  name: 'webhook-triggers',
  repeatable: true,
  async up(knex: Knex): Promise<void> {
    await installGeneratedTriggers(knex, 'webhook-triggers', webhookTriggers);
  },
  async down(): Promise<void> {},
};
