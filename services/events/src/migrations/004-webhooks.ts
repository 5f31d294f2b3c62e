import type { Knex } from 'knex';
import {
  createWebhookEmitter,
  createWebhookTables,
  dropWebhookEmitter,
  dropWebhookTables,
  subscribedSql,
  unlessSubscribedSql,
} from '@fieldhouse/webhooks';

/**
 * Outbound webhooks of area C (docs/webhooks.md): subscriptions per event and their delivery
 * log, and the triggers that capture `invite.created`, `invite.checked_in` and
 * `invite.presence_changed` in the transaction of the change, whichever path made it (the API,
 * the scanner's group commit, offline batches, CSV imports), once per statement, and only for
 * events that have a subscription taking the kind.
 */
export const webhooks = {
  name: '004-webhooks',
  async up(knex: Knex): Promise<void> {
    await createWebhookTables(knex, (t) =>
      t.uuid('event_id').notNullable().references('events.id').onDelete('CASCADE').index(),
    );
    await createWebhookEmitter(knex, 'events');
    await knex.raw(`
      CREATE FUNCTION webhook_invite(i invites) RETURNS jsonb LANGUAGE sql STABLE AS $$
        SELECT jsonb_build_object('id', i.id, 'event_id', i.event_id, 'nom', i.nom, 'email', i.email,
          'type_invite', i.type_invite, 'code_unique', i.code_unique, 'presence', i.presence,
          'checked_in_at', webhook_iso(i.checked_in_at), 'scanne_par', i.scanne_par,
          'revoked', i.revoked_at IS NOT NULL, 'created_at', webhook_iso(i.created_at))
      $$`);
    await knex.raw(`
      CREATE FUNCTION webhook_invite_links(i invites) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
        SELECT jsonb_build_object('invite', '/api/events/' || i.event_id || '/invites/' || i.id,
          'event', '/api/events/' || i.event_id)
      $$`);
    await knex.raw(`
      CREATE FUNCTION webhook_invites_created() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${unlessSubscribedSql(['invite.created'])}
        PERFORM webhook_emit('invite.created', jsonb_build_object('event_id', n.event_id),
          jsonb_build_object('invite', webhook_invite(n), 'links', webhook_invite_links(n)))
        FROM new_invites n
        WHERE ${subscribedSql("'invite.created'", 's.event_id = n.event_id')};
        RETURN NULL;
      END $$`);
    await knex.raw(`
      CREATE TRIGGER invites_webhooks AFTER INSERT ON invites REFERENCING NEW TABLE AS new_invites
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_invites_created()`);
    await knex.raw(`
      CREATE FUNCTION webhook_attendance() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${unlessSubscribedSql(['invite.checked_in', 'invite.presence_changed'])}
        PERFORM webhook_emit(k.kind, jsonb_build_object('event_id', l.event_id),
          jsonb_build_object('invite', webhook_invite(i), 'links', webhook_invite_links(i),
            'presence', l.presence, 'previous', l.previous, 'at', webhook_iso(l.scanned_at),
            'scanne_par', l.scanne_par,
            'by', jsonb_build_object('user_id', l.user_id, 'scanner_device_id', l.scanner_device_id)))
        FROM new_log l
        JOIN invites i ON i.id = l.invite_id
        CROSS JOIN LATERAL (SELECT CASE WHEN l.action = 'checkin' THEN 'invite.checked_in'
          ELSE 'invite.presence_changed' END AS kind) k
        WHERE ${subscribedSql('k.kind', 's.event_id = l.event_id')}
        ORDER BY l.id;
        RETURN NULL;
      END $$`);
    await knex.raw(`
      CREATE TRIGGER attendance_webhooks AFTER INSERT ON attendance_log REFERENCING NEW TABLE AS new_log
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_attendance()`);
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw('DROP TRIGGER attendance_webhooks ON attendance_log');
    await knex.raw('DROP TRIGGER invites_webhooks ON invites');
    await knex.raw('DROP FUNCTION webhook_attendance()');
    await knex.raw('DROP FUNCTION webhook_invites_created()');
    await knex.raw('DROP FUNCTION webhook_invite_links(invites)');
    await knex.raw('DROP FUNCTION webhook_invite(invites)');
    await dropWebhookEmitter(knex);
    await dropWebhookTables(knex);
  },
};
