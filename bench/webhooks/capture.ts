/**
 * `node --conditions=source bench/webhooks/capture.ts`: how area A should capture its webhooks
 * (issue 33), on two scratch databases of the collection service.
 *
 * 1. **Same bytes.** The same writes (a group-committed batch of submissions, edits, reviews
 *    with and without a reviewer, a deletion, an export completed and one failed) on a database
 *    with the hand-written triggers of migration 012 (migrations up to 015) and on one with the
 *    triggers generated from domain/changes.ts (every migration): the `data` of every outbox
 *    message must be the same text (`deleted_at`, the clock, aside). PASS/FAIL.
 * 2. **Trigger or TypeScript.** A group commit writes many submissions per statement
 *    (libs/group-commit, the offline sync). `BENCH_STATEMENTS` (default 150) statements of
 *    `BENCH_ROWS` (64) submissions each, every one in its own transaction, with an active
 *    subscription: (a) the generated trigger; (b) no trigger, the statement `RETURNING` its rows
 *    and TypeScript building each payload and appending the messages to the outbox in one more
 *    statement, as a use case would through `changes.appendWebhook`; and the same two with
 *    nobody subscribed (the trigger's one probe against TypeScript's one query). (a) runs on the
 *    generated database, (b) on the other one with its trigger dropped, statement after statement
 *    (so both see the same load); the median and p90 per statement are printed. PASS when the
 *    trigger's median is not slower than TypeScript's by more than 5 % with a subscriber.
 *
 * Env: POSTGRES_URL (default the local one).
 */
import { createKnex, dropDatabase, migrateLatest, type Knex } from '@fieldhouse/db';
import { migrations } from '../../services/collection/src/migrations/index.ts';
import { benchBacking, withDatabase } from '../lib/backing.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 64);
const STATEMENTS = Number(process.env.BENCH_STATEMENTS ?? 150);
const KINDS = [
  'submission.created',
  'submission.updated',
  'submission.reviewed',
  'submission.deleted',
  'export.completed',
  'export.failed',
];

const base = benchBacking().postgres;
const oldUrl = withDatabase(base, 'bench_capture_handwritten');
const newUrl = withDatabase(base, 'bench_capture_generated');

/** Users, a workspace, a project and its form version; a subscription taking every kind when `subscribed`. */
async function seed(db: Knex, subscribed: boolean): Promise<void> {
  await db.raw(`INSERT INTO users (id, name, email, updated_at) VALUES (1, 'Alice', 'alice@example.test', now()),
    (2, 'Bob', 'bob@example.test', now())`);
  await db.raw(`INSERT INTO workspaces (id, name, created_by) VALUES (1, 'W', 1)`);
  await db.raw(`INSERT INTO projects (id, workspace_id, name, created_by) VALUES (1, 1, 'P', 1)`);
  await db.raw(`INSERT INTO form_versions (id, project_id, number) VALUES (1, 1, 1)`);
  if (subscribed) await subscribe(db);
}

const subscribe = (db: Knex) =>
  db.raw(
    `INSERT INTO webhook_subscriptions (id, workspace_id, url, events, secret, active)
     VALUES (gen_random_uuid(), 1, 'https://hooks.example.test/a', ?::text[], 'whsec_x', true)`,
    [KINDS],
  );

/** One multi-row INSERT of `n` submissions, the way the group commit writes them. */
function insertSubmissions(db: Knex | Knex.Transaction, n: number, offset: number, returning = false) {
  const values: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = offset + i;
    const located = k % 3 !== 0;
    values.push(
      `(1, 1, ${k % 4 === 0 ? 'NULL' : 1}, 'submitted', ${located ? 48.8566 + k / 1e4 : 'NULL'}, ${
        located ? 2.3522 - k / 7e3 : 'NULL'
      }, ${k % 5 === 0 ? 35.5 : 'NULL'}, ${k % 2 === 0 ? 4.25 : 'NULL'}, ` +
        `'[{"field_uuid": "6f1c2b9e-1111-4c1a-9a1e-${String(k).padStart(12, '0')}", "type": "text", "value": "answer ${k}"}]'::jsonb, ` +
        `${k % 3 === 0 ? 'NULL' : k % 3 === 1 ? 'true' : 'false'}, ` +
        `'2026-11-28T10:00:00.123456Z'::timestamptz + interval '${k} seconds', '2026-11-28T10:00:00.5Z'::timestamptz, ` +
        `${k % 2 ? `'2026-11-28T09:59:00Z'` : 'NULL'})`,
    );
  }
  return db.raw(
    `INSERT INTO submissions (project_id, form_version_id, collector_id, status, latitude, longitude, altitude,
       precision, data, consent, created_at, updated_at, submitted_at)
     VALUES ${values.join(', ')}${returning ? ' RETURNING *' : ''}`,
  );
}

/** Every kind once or more, the same on both databases. */
async function sameWrites(db: Knex): Promise<void> {
  await insertSubmissions(db, 20, 0);
  await db.raw(`UPDATE submissions SET data = '[]'::jsonb, latitude = 1.5 WHERE id IN (2, 3)`);
  await db.raw(`UPDATE submissions SET status = 'reviewed' WHERE id IN (4, 5)`);
  await db.raw(`INSERT INTO submission_history (submission_id, from_status, to_status, user_id, comment, created_at) VALUES
    (4, 'submitted', 'reviewed', 1, 'ok', '2026-11-28T11:00:00.001Z'),
    (5, 'submitted', 'rejected', NULL, NULL, '2026-11-28T11:00:00.002Z'),
    (6, 'submitted', 'reviewed', 2, 'l''été', '2026-11-28T11:00:00.003Z'),
    (7, 'submitted', 'reviewed', 99, NULL, '2026-11-28T11:00:00.004Z'),
    (8, NULL, 'submitted', 1, NULL, '2026-11-28T11:00:00.005Z')`);
  await db.raw(`DELETE FROM submissions WHERE id = 9`);
  await db.raw(`INSERT INTO exports (id, project_id, workspace_id, requested_by, format, filters, created_at) VALUES
    ('00000000-0000-4000-8000-000000000001', 1, 1, 1, 'csv', '{"status": "submitted"}', '2026-11-28T12:00:00Z'),
    ('00000000-0000-4000-8000-000000000002', 1, 1, 2, 'geojson', '{}', '2026-11-28T12:00:00Z')`);
  await db.raw(`UPDATE exports SET status = 'completed', rows_written = 20, finished_at = '2026-11-28T12:01:00.999Z',
    expires_at = '2026-11-29T12:01:00.999Z' WHERE id = '00000000-0000-4000-8000-000000000001'`);
  await db.raw(`UPDATE exports SET status = 'failed', error = 'disk full', finished_at = '2026-11-28T12:02:00Z'
    WHERE id = '00000000-0000-4000-8000-000000000002'`);
}

/** The outbox's webhook messages: kind, scope and data as PostgreSQL writes them (text), in outbox order. */
async function outboxTexts(db: Knex): Promise<string[]> {
  const { rows } = (await db.raw(
    `SELECT message->>'type' AS type, (message->'data'->'scope')::text AS scope,
       ((message->'data'->'data') - 'deleted_at')::text AS data
     FROM outbox WHERE message->>'type' LIKE 'webhook.%' ORDER BY message->>'type', id`,
  )) as { rows: Array<{ type: string; scope: string; data: string }> };
  return rows.map((r) => `${r.type} ${r.scope} ${r.data}`);
}

/** `submission.created` as a use case would build it in TypeScript (domain/changes.ts's shape). */
function createdPayload(row: Record<string, unknown>, workspaceId: number) {
  const iso = (t: unknown) => (t === null ? null : (t as Date).toISOString());
  return {
    workspace_id: workspaceId,
    submission: {
      id: Number(row.id),
      project_id: row.project_id,
      form_version_id: row.form_version_id,
      collector_id: row.collector_id,
      status: row.status,
      latitude: row.latitude,
      longitude: row.longitude,
      altitude: row.altitude,
      precision: row.precision,
      data: row.data,
      consent: row.consent,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      submitted_at: iso(row.submitted_at),
    },
    links: {
      submission: `/api/v1/projects/${String(row.project_id)}/submissions/${String(row.id)}`,
      project: `/api/v1/projects/${String(row.project_id)}`,
    },
  };
}

/** (b): the statement, then the payloads built in TypeScript and appended in one more statement. */
async function appendFromTypeScript(db: Knex, offset: number): Promise<void> {
  await db.transaction(async (trx) => {
    const { rows } = (await insertSubmissions(trx, ROWS, offset, true)) as {
      rows: Record<string, unknown>[];
    };
    const { rows: reach } = (await trx.raw(
      `SELECT p.id, p.workspace_id FROM projects p WHERE p.id = ANY(?) AND EXISTS (SELECT 1 FROM webhook_subscriptions s
         WHERE s.active AND 'submission.created' = ANY(s.events) AND s.workspace_id = p.workspace_id
           AND (s.project_ids IS NULL OR p.id = ANY(s.project_ids)))`,
      [[...new Set(rows.map((r) => r.project_id as number))]],
    )) as { rows: Array<{ id: number; workspace_id: number }> };
    const workspaceOf = new Map(reach.map((p) => [p.id, p.workspace_id]));
    const time = new Date().toISOString();
    const messages = rows
      .filter((r) => workspaceOf.has(r.project_id as number))
      .map((r) => {
        const workspaceId = workspaceOf.get(r.project_id as number)!;
        return {
          exchange: 'collection',
          message: JSON.stringify({
            id: crypto.randomUUID(),
            type: 'webhook.submission.created',
            source: 'collection',
            time,
            data: {
              scope: { workspace_id: workspaceId, project_id: r.project_id },
              data: createdPayload(r, workspaceId),
            },
          }),
        };
      });
    if (messages.length > 0) {
      await trx('outbox').insert(messages);
      await trx.raw(`SELECT pg_notify('outbox', '')`);
    }
  });
}

/** Milliseconds of each statement's transaction, (a) and (b) alternating statement by statement so both see the same load. */
async function alternate(
  trigger: (offset: number) => Promise<unknown>,
  typescript: (offset: number) => Promise<unknown>,
): Promise<{ trigger: number[]; typescript: number[] }> {
  const out = { trigger: [] as number[], typescript: [] as number[] };
  const time = async (run: (offset: number) => Promise<unknown>, offset: number) => {
    const started = performance.now();
    await run(offset);
    return performance.now() - started;
  };
  for (let s = 0; s < STATEMENTS; s++) {
    const offset = 1_000_000 + s * ROWS;
    // Which goes first alternates too.
    if (s % 2) {
      out.trigger.push(await time(trigger, offset));
      out.typescript.push(await time(typescript, offset));
    } else {
      out.typescript.push(await time(typescript, offset));
      out.trigger.push(await time(trigger, offset));
    }
  }
  return out;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)]!;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function main(): Promise<void> {
  for (const url of [oldUrl, newUrl]) await dropDatabase(url);
  const handwritten = migrations.filter((m) => m.name < '016' && !m.repeatable);
  await migrateLatest(oldUrl, handwritten);
  await migrateLatest(newUrl, migrations);
  const oldDb = createKnex(oldUrl);
  const newDb = createKnex(newUrl);
  let pass = true;
  try {
    for (const db of [oldDb, newDb]) {
      await seed(db, true);
      await sameWrites(db);
    }
    const [a, b] = [await outboxTexts(oldDb), await outboxTexts(newDb)];
    const same = a.length === b.length && a.every((t, i) => t === b[i]);
    console.log(
      `same bytes: ${a.length} hand-written messages, ${b.length} generated: ${same ? 'PASS' : 'FAIL'}`,
    );
    if (!same) {
      pass = false;
      for (let i = 0; i < Math.max(a.length, b.length); i++)
        if (a[i] !== b[i]) console.log(`  hand-written: ${a[i]}\n  generated:    ${b[i]}`);
    }

    // (a) on the generated database; (b) on the other one, its trigger dropped: the same tables,
    // indexes and other triggers, on the same server, statement after statement.
    await oldDb.raw('DROP TRIGGER submissions_created_webhooks ON submissions');
    const trigger = (offset: number) => newDb.transaction((trx) => insertSubmissions(trx, ROWS, offset));
    const typescript = (offset: number) => appendFromTypeScript(oldDb, offset);
    console.log(
      `${STATEMENTS} statements of ${ROWS} submissions each, alternating (ms per statement's transaction):`,
    );
    for (const subscribed of [true, false]) {
      for (const db of [oldDb, newDb]) {
        await db.raw('DELETE FROM webhook_subscriptions');
        if (subscribed) await subscribe(db);
        await db.raw('TRUNCATE outbox');
      }
      const ms = await alternate(trigger, typescript);
      for (const db of [oldDb, newDb]) await db.raw('DELETE FROM submissions WHERE id > 100');
      const line = (xs: number[]) =>
        `median ${quantile(xs, 0.5).toFixed(2)}, p90 ${quantile(xs, 0.9).toFixed(2)}, ` +
        `${((xs.length * ROWS) / (sum(xs) / 1000)).toFixed(0)} submissions/s`;
      const [t, s] = [quantile(ms.trigger, 0.5), quantile(ms.typescript, 0.5)];
      console.log(`  ${subscribed ? 'subscribed' : 'nobody subscribed'}:`);
      console.log(`    trigger:           ${line(ms.trigger)}`);
      console.log(`    TypeScript append: ${line(ms.typescript)}`);
      console.log(`    trigger median ${((t / s - 1) * 100).toFixed(1)} % against TypeScript`);
      if (subscribed) {
        const ok = t <= s * 1.05;
        console.log(
          `    trigger not slower than TypeScript (5 % margin) with a subscriber: ${ok ? 'PASS' : 'FAIL'}`,
        );
        pass &&= ok;
      }
    }
  } finally {
    await oldDb.destroy();
    await newDb.destroy();
    for (const url of [oldUrl, newUrl]) await dropDatabase(url);
  }
  console.log(pass ? 'PASS' : 'FAIL');
  if (!pass) process.exitCode = 1;
}

await main();
