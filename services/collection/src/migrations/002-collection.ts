import type { Knex } from 'knex';

/**
 * Area A tables: the users projection, workspaces and members, projects with their publication
 * settings, form versions and fields, submissions (typed columns + JSONB payload + full-text
 * vector), their status history and photos, and per-day counters used for list totals and stats.
 */
export const collection = {
  name: '002-collection',
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('users', (t) => {
      t.integer('id').primary();
      t.text('name').notNullable();
      t.text('email').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.raw('CREATE INDEX users_email_lower ON users (lower(email))');

    await knex.schema.createTable('workspaces', (t) => {
      t.increments('id').primary();
      t.text('name').notNullable();
      t.text('description');
      t.integer('created_by').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    });
    await knex.schema.createTable('workspace_members', (t) => {
      t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
      t.integer('user_id').notNullable();
      t.text('role').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.primary(['workspace_id', 'user_id']);
      t.index(['user_id']);
    });

    await knex.schema.createTable('projects', (t) => {
      t.increments('id').primary();
      t.integer('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
      t.text('name').notNullable();
      t.text('description');
      t.boolean('is_published').notNullable().defaultTo(false);
      t.timestamp('published_at', { useTz: true });
      t.integer('current_version_id');
      t.jsonb('settings').notNullable().defaultTo('{}');
      t.integer('created_by').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.index(['workspace_id', 'id']);
    });

    await knex.schema.createTable('form_versions', (t) => {
      t.increments('id').primary();
      t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
      t.integer('number').notNullable();
      t.text('status').notNullable().defaultTo('draft');
      t.integer('copied_from_version_id');
      t.timestamp('published_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.unique(['project_id', 'number']);
    });

    await knex.schema.createTable('fields', (t) => {
      t.increments('id').primary();
      t.integer('version_id').notNullable().references('form_versions.id').onDelete('CASCADE');
      t.uuid('uuid').notNullable();
      t.text('name').notNullable();
      t.text('label').notNullable();
      t.text('type').notNullable();
      t.boolean('required').notNullable().defaultTo(false);
      t.jsonb('choices');
      t.jsonb('constraints').notNullable().defaultTo('{}');
      t.integer('position').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.unique(['version_id', 'name']);
      t.unique(['version_id', 'uuid']);
    });

    await knex.schema.createTable('submissions', (t) => {
      t.bigIncrements('id').primary();
      t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE');
      t.integer('form_version_id').notNullable();
      t.integer('collector_id');
      t.text('status').notNullable();
      t.double('latitude');
      t.double('longitude');
      t.double('altitude');
      t.double('precision');
      t.jsonb('data').notNullable();
      t.text('search_text').notNullable().defaultTo('');
      t.boolean('consent');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('submitted_at', { useTz: true });
    });
    await knex.raw(
      `ALTER TABLE submissions ADD COLUMN search tsvector
         GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED`,
    );
    // Listing: newest first, filtered by status and/or date (keyset-friendly, covering the id).
    await knex.raw(
      'CREATE INDEX submissions_project_created ON submissions (project_id, created_at DESC, id DESC)',
    );
    await knex.raw(
      'CREATE INDEX submissions_project_status_created ON submissions (project_id, status, created_at DESC, id DESC)',
    );
    await knex.raw(
      'CREATE INDEX submissions_project_collector_created ON submissions (project_id, collector_id, created_at DESC, id DESC)',
    );
    // Full-text search within one project: btree_gin lets one GIN index hold (project_id, search),
    // so the planner never filters a whole project's rows by their vectors.
    await knex.raw('CREATE EXTENSION IF NOT EXISTS btree_gin');
    await knex.raw('CREATE INDEX submissions_search ON submissions USING GIN (project_id, search)');

    await knex.schema.createTable('submission_history', (t) => {
      t.bigIncrements('id').primary();
      t.bigInteger('submission_id').notNullable().references('submissions.id').onDelete('CASCADE');
      t.text('from_status');
      t.text('to_status').notNullable();
      t.integer('user_id');
      t.text('comment');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.index(['submission_id', 'id']);
    });

    await knex.schema.createTable('photos', (t) => {
      t.uuid('id').primary();
      t.bigInteger('submission_id').notNullable().references('submissions.id').onDelete('CASCADE');
      t.uuid('field_uuid').notNullable();
      t.text('content_type').notNullable();
      t.integer('size').notNullable();
      t.text('blob_key').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.index(['submission_id']);
    });

    // Exact totals without counting rows: one counter per (project, status, UTC day, shard),
    // maintained by a trigger in the writing transaction. The shard spreads concurrent inserts
    // over several rows so they do not queue on one row lock. Also used to jump to deep pages.
    await knex.schema.createTable('submission_counts', (t) => {
      t.integer('project_id').notNullable();
      t.text('status').notNullable();
      t.date('day').notNullable();
      t.smallint('shard').notNullable();
      t.bigInteger('n').notNullable();
      t.primary(['project_id', 'status', 'day', 'shard']);
    });
    await knex.raw(`
      CREATE FUNCTION submission_counts_bump(p int, s text, d date, delta int) RETURNS void AS $$
        INSERT INTO submission_counts (project_id, status, day, shard, n)
        VALUES (p, s, d, (floor(random() * 8))::smallint, delta)
        ON CONFLICT (project_id, status, day, shard) DO UPDATE SET n = submission_counts.n + delta;
      $$ LANGUAGE sql;
      CREATE FUNCTION submission_counts_trigger() RETURNS trigger AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          PERFORM submission_counts_bump(OLD.project_id, OLD.status, (OLD.created_at AT TIME ZONE 'UTC')::date, -1);
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
          PERFORM submission_counts_bump(NEW.project_id, NEW.status, (NEW.created_at AT TIME ZONE 'UTC')::date, 1);
        END IF;
        RETURN NULL;
      END $$ LANGUAGE plpgsql;
      CREATE TRIGGER submissions_count_insert_delete AFTER INSERT OR DELETE ON submissions
        FOR EACH ROW EXECUTE FUNCTION submission_counts_trigger();
      CREATE TRIGGER submissions_count_update AFTER UPDATE OF status, created_at, project_id ON submissions
        FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at
          OR OLD.project_id IS DISTINCT FROM NEW.project_id)
        EXECUTE FUNCTION submission_counts_trigger();
    `);
  },
  async down(knex: Knex): Promise<void> {
    for (const t of [
      'submission_counts',
      'photos',
      'submission_history',
      'submissions',
      'fields',
      'form_versions',
      'projects',
      'workspace_members',
      'workspaces',
      'users',
    ])
      await knex.schema.dropTableIfExists(t);
    await knex.raw(
      'DROP FUNCTION IF EXISTS submission_counts_trigger(); DROP FUNCTION IF EXISTS submission_counts_bump(int, text, date, int)',
    );
  },
};
