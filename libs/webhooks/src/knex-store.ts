import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { GroupCommit } from '@fieldhouse/group-commit';
import { PER_OWNER_CLAIM, PER_SUBSCRIPTION_CLAIM, planOf, type PlanRow } from './store-common.ts';
import type {
  AttemptOutcome,
  AttemptPlan,
  AttemptRecord,
  DeliveryJob,
  DisabledSubscription,
  WebhookEvent,
  WebhookStore,
} from './types.ts';

/**
 * The SQL condition of the subscriptions (`webhook_subscriptions` aliased `s`) an event reaches,
 * from its message's scope (`m.scope`, jsonb): e.g. `s.event_id = (m.scope->>'event_id')::uuid`.
 */
export type ScopeMatch = string;

/** An event to fan out, as {@link KnexWebhookStore.fanOut} takes it. */
interface FanOutItem {
  messageId: string;
  kind: string;
  at: Date;
  event: WebhookEvent;
  leaseMs: number;
}

/**
 * The delivery log of a PostgreSQL service, on the tables of `createWebhookTables`. Every
 * change of a delivery is one statement, and successful attempts finishing together share one
 * (group commit: under load a batch grows with the wait, alone it is written at once); an
 * attempt's result is recorded only under the lease it was started with, so a job queued twice
 * is attempted once.
 */
export class KnexWebhookStore implements WebhookStore {
  private readonly db: Knex;
  private readonly scopeMatch: ScopeMatch;
  /** Events fanned out together, one statement per batch. */
  private readonly fanOuts: GroupCommit<FanOutItem, AttemptPlan[]>;
  /** Successful attempts finished together, one statement per batch (the common case under load). */
  private readonly successes: GroupCommit<{ plan: AttemptPlan; attempt: AttemptRecord }, undefined>;

  constructor(db: Knex, scopeMatch: ScopeMatch) {
    this.db = db;
    this.scopeMatch = scopeMatch;
    this.fanOuts = new GroupCommit((items) => this.fanOutBatch(items), { maxBatch: 100 });
    this.successes = new GroupCommit((items) => this.finishSucceeded(items), { maxBatch: 200 });
  }

  fanOut(messageId: string, kind: string, at: Date, event: WebhookEvent, leaseMs: number) {
    return this.fanOuts.submit({ messageId, kind, at, event, leaseMs });
  }

  /**
   * Fans out the events that arrived together in one statement: each message recorded once, one
   * delivery per matching subscription, leased, and what the first attempts need. Resolves with
   * each event's plans, in order (none for a message recorded before, or repeated in the batch).
   */
  private async fanOutBatch(items: FanOutItem[]) {
    const token = randomUUID();
    const seen = new Set<string>();
    const messages = items.flatMap((i) => {
      if (seen.has(i.messageId)) return [];
      seen.add(i.messageId);
      const body = JSON.stringify({ type: i.kind, timestamp: i.at.toISOString(), data: i.event.data });
      return [
        { id: i.messageId, kind: i.kind, scope: i.event.scope, body, created_at: i.at, lease: i.leaseMs },
      ];
    });
    const { rows } = (await this.db.raw(
      `WITH v AS (
         SELECT * FROM jsonb_to_recordset(?::jsonb)
           AS x(id uuid, kind text, scope jsonb, body text, created_at timestamptz, lease int)),
       m AS (
         INSERT INTO webhook_messages (id, kind, scope, body, created_at)
         SELECT id, kind, scope, body, created_at FROM v
         ON CONFLICT (id) DO NOTHING RETURNING id, kind, scope),
       d AS (
         INSERT INTO webhook_deliveries
           (id, subscription_id, message_id, kind, status, next_attempt_at, lock_token, locked_until)
         SELECT gen_random_uuid(), s.id, m.id, m.kind, 'pending', now(), ?, now() + v.lease * interval '1 millisecond'
         FROM m JOIN v ON v.id = m.id
           JOIN webhook_subscriptions s ON s.active AND m.kind = ANY(s.events) AND (${this.scopeMatch})
         ON CONFLICT (subscription_id, message_id) DO NOTHING
         RETURNING id, subscription_id, message_id)
       SELECT d.id, d.subscription_id, d.message_id, s.url, s.secret, s.active, s.created_by,
         CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret END AS previous_secret
       FROM d JOIN webhook_subscriptions s ON s.id = d.subscription_id`,
      [JSON.stringify(messages), token],
    )) as { rows: Array<PlanRow & { message_id: string }> };
    const byMessage = new Map(messages.map((m) => [m.id, m]));
    const plans = new Map<string, AttemptPlan[]>();
    for (const r of rows) {
      const m = byMessage.get(r.message_id)!;
      const list = plans.get(m.id) ?? [];
      list.push(
        planOf(r, { messageId: m.id, kind: m.kind, body: m.body, scope: m.scope, roundAttempts: 0, token }),
      );
      plans.set(m.id, list);
    }
    return items.map((i) => {
      const value = plans.get(i.messageId) ?? [];
      plans.delete(i.messageId); // a message repeated in the batch gets its plans once
      return { ok: true as const, value };
    });
  }

  async claimDue(limit: number, leaseMs: number, busyOwners: string[] = []): Promise<DeliveryJob[]> {
    const token = randomUUID();
    const { rows } = (await this.db.raw(
      `WITH due AS (
         SELECT id FROM (
           SELECT d.id, d.next_attempt_at,
             row_number() OVER (PARTITION BY d.subscription_id ORDER BY d.next_attempt_at) AS n,
             row_number() OVER (PARTITION BY coalesce('user:' || s.created_by, 'subscription:' || s.id)
               ORDER BY d.next_attempt_at) AS o
           FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
           WHERE d.status = 'pending' AND d.next_attempt_at <= now()
             AND (d.locked_until IS NULL OR d.locked_until < now())
             AND coalesce('user:' || s.created_by, 'subscription:' || s.id)
               NOT IN (SELECT jsonb_array_elements_text(?::jsonb))) d
         WHERE n <= ? AND o <= ?
         ORDER BY next_attempt_at LIMIT ?),
       locked AS (
         SELECT id FROM webhook_deliveries WHERE id IN (SELECT id FROM due) FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries SET lock_token = ?, locked_until = now() + ? * interval '1 millisecond'
       WHERE id IN (SELECT id FROM locked)
       RETURNING id`,
      [JSON.stringify(busyOwners), PER_SUBSCRIPTION_CLAIM, PER_OWNER_CLAIM, limit, token, leaseMs],
    )) as { rows: Array<{ id: string }> };
    return rows.slice(0, limit).map((r) => ({ delivery_id: r.id, token }));
  }

  async startAttempt(job: DeliveryJob, leaseMs: number): Promise<AttemptPlan | undefined> {
    const token = randomUUID();
    const { rows } = (await this.db.raw(
      `UPDATE webhook_deliveries d SET lock_token = ?, locked_until = now() + ? * interval '1 millisecond'
       FROM webhook_subscriptions s, webhook_messages m
       WHERE d.id = ? AND s.id = d.subscription_id AND m.id = d.message_id AND d.status = 'pending'
         AND d.next_attempt_at <= now()
         AND (d.lock_token = ? OR d.locked_until IS NULL OR d.locked_until < now())
       RETURNING d.id, d.subscription_id, d.message_id, d.kind, d.attempts - d.round_start AS round_attempts,
         s.url, s.secret, s.active, s.created_by, m.body, m.scope,
         CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret END AS previous_secret`,
      [token, leaseMs, job.delivery_id, job.token],
    )) as {
      rows: Array<
        PlanRow & {
          message_id: string;
          kind: string;
          round_attempts: number;
          body: string;
          scope: WebhookEvent['scope'];
        }
      >;
    };
    const r = rows[0];
    if (!r) return undefined;
    return planOf(r, {
      messageId: r.message_id,
      kind: r.kind,
      body: r.body,
      scope: r.scope,
      roundAttempts: r.round_attempts,
      token,
    });
  }

  async finishAttempt(
    plan: AttemptPlan,
    attempt: AttemptRecord,
    outcome: AttemptOutcome,
    disableAfter: number,
  ): Promise<DisabledSubscription | undefined> {
    if (outcome.next === 'succeeded') {
      await this.successes.submit({ plan, attempt });
      return undefined;
    }
    const status = outcome.next === 'retry' ? 'pending' : outcome.next;
    const nextAt = outcome.next === 'retry' ? outcome.at : null;
    const kept = [attempt.status, attempt.durationMs, attempt.body, attempt.error] as const;
    const { rows } = (await this.db.raw(
      `WITH d AS (
         UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?,
           last_attempt_at = ?, response_status = ?, duration_ms = ?, response_body = ?, error = ?,
           lock_token = NULL, locked_until = NULL
         WHERE id = ? AND lock_token = ? RETURNING id, subscription_id),
       a AS (
         INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, response_body, error)
         SELECT id, ?, ?, ?, ?, ? FROM d)
       SELECT count(*)::int AS n FROM d`,
      [status, nextAt, attempt.at, ...kept, plan.deliveryId, plan.token, attempt.at, ...kept],
    )) as { rows: Array<{ n: number }> };
    if (!rows[0]?.n || outcome.next !== 'failed' || (!outcome.gone && !outcome.countsAsFailure))
      return undefined;
    return this.countFailure(plan, outcome.gone, disableAfter);
  }

  /**
   * Records a batch of successful attempts in one statement, each under its own lease (a lapsed
   * one is dropped, as in {@link finishAttempt}): the deliveries `succeeded`, their attempts
   * logged, their subscriptions' failure streaks reset.
   */
  private async finishSucceeded(items: Array<{ plan: AttemptPlan; attempt: AttemptRecord }>) {
    const rows = items.map(({ plan, attempt: a }) => ({
      id: plan.deliveryId,
      token: plan.token,
      at: a.at.toISOString(),
      status: a.status,
      duration: a.durationMs,
      body: a.body,
      error: a.error,
    }));
    await this.db.raw(
      `WITH v AS (
         SELECT * FROM jsonb_to_recordset(?::jsonb)
           AS x(id uuid, token uuid, at timestamptz, status int, duration int, body text, error text)),
       d AS (
         UPDATE webhook_deliveries w SET status = 'succeeded', attempts = w.attempts + 1, next_attempt_at = NULL,
           last_attempt_at = v.at, response_status = v.status, duration_ms = v.duration, response_body = v.body,
           error = v.error, lock_token = NULL, locked_until = NULL
         FROM v WHERE w.id = v.id AND w.lock_token = v.token RETURNING w.id, w.subscription_id),
       a AS (
         INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, response_body, error)
         SELECT v.id, v.at, v.status, v.duration, v.body, v.error FROM v JOIN d ON d.id = v.id)
       UPDATE webhook_subscriptions SET failure_streak = 0
       WHERE id IN (SELECT subscription_id FROM d) AND failure_streak <> 0`,
      [JSON.stringify(rows)],
    );
    return items.map(() => ({ ok: true as const, value: undefined }));
  }

  /** Counts a delivery failed for good; disables the subscription on 410 or after `disableAfter` in a row. */
  private async countFailure(
    plan: AttemptPlan,
    gone: boolean,
    disableAfter: number,
  ): Promise<DisabledSubscription | undefined> {
    const { rows } = (await this.db.raw(
      `UPDATE webhook_subscriptions s SET failure_streak = s.failure_streak + 1,
         active = s.active AND NOT (? OR s.failure_streak + 1 >= ?),
         disabled_reason = CASE WHEN s.active AND (? OR s.failure_streak + 1 >= ?)
           THEN CASE WHEN ? THEN 'gone' ELSE 'failing' END ELSE s.disabled_reason END,
         disabled_at = CASE WHEN s.active AND (? OR s.failure_streak + 1 >= ?) THEN now() ELSE s.disabled_at END,
         updated_at = now()
       FROM (SELECT id, active AS was_active FROM webhook_subscriptions WHERE id = ? FOR UPDATE) old
       WHERE s.id = old.id
       RETURNING s.url, s.disabled_reason, old.was_active AND NOT s.active AS just_disabled`,
      [gone, disableAfter, gone, disableAfter, gone, gone, disableAfter, plan.subscriptionId],
    )) as { rows: Array<{ url: string; disabled_reason: 'gone' | 'failing'; just_disabled: boolean }> };
    const r = rows[0];
    if (!r?.just_disabled) return undefined;
    return { id: plan.subscriptionId, url: r.url, reason: r.disabled_reason, scope: plan.scope };
  }

  async defer(plans: AttemptPlan[], delayMs: number): Promise<void> {
    if (!plans.length) return;
    await this.db('webhook_deliveries')
      .whereIn(
        ['id', 'lock_token'],
        plans.map((p) => [p.deliveryId, p.token]),
      )
      .update({
        lock_token: null,
        locked_until: null,
        next_attempt_at: this.db.raw(`now() + ? * interval '1 millisecond'`, [delayMs]),
      });
  }

  async prune(before: Date): Promise<number> {
    return this.db('webhook_messages').where('created_at', '<', before).delete();
  }
}
