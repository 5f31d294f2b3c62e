import type { Knex } from 'knex';

/** Longest word prefix indexed as a lexeme of its own; longer query words use `:*`. */
export const SEARCH_PREFIX_MAX = 20;

/**
 * This migration's search-vector function as SQL (`verb`: CREATE or CREATE OR REPLACE), also
 * restored by migration 009's `down` and compared with 009's in the tests.
 */
export const searchVectorSql = (verb: 'CREATE' | 'CREATE OR REPLACE', name: string): string => `
  ${verb} FUNCTION ${name}(t text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT COALESCE(array_to_tsvector(array_agg(DISTINCT p)), ''::tsvector)
    FROM unnest(tsvector_to_array(to_tsvector('simple'::regconfig, t))) AS w,
         LATERAL (SELECT left(w, n) AS p FROM generate_series(1, least(length(w), ${SEARCH_PREFIX_MAX})) AS n
                  UNION ALL SELECT w) AS prefixes
  $$`;

/**
 * Search as you type without prefix scans (docs/collection.md, "Listing and search"): the
 * search vector holds every word of `search_text` and each of its prefixes up to
 * {@link SEARCH_PREFIX_MAX} characters (edge n-grams), so a query word is looked up as one
 * exact lexeme in the GIN index. A `word:*` prefix query makes GIN gather every matching
 * entry's postings into a bitmap first, about five times the work for common words.
 * Rewrites `submissions` (a generated column changes) and rebuilds the search index.
 */
export const searchPrefixes = {
  name: '007-search-prefixes',
  async up(knex: Knex): Promise<void> {
    await knex.raw(searchVectorSql('CREATE', 'submission_search_vector'));
    await knex.raw('DROP INDEX submissions_search');
    await knex.raw('ALTER TABLE submissions DROP COLUMN search');
    await knex.raw(
      `ALTER TABLE submissions ADD COLUMN search tsvector
         GENERATED ALWAYS AS (submission_search_vector(search_text)) STORED`,
    );
    await knex.raw('CREATE INDEX submissions_search ON submissions USING GIN (project_id, search)');
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw('DROP INDEX submissions_search');
    await knex.raw('ALTER TABLE submissions DROP COLUMN search');
    await knex.raw(
      `ALTER TABLE submissions ADD COLUMN search tsvector
         GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED`,
    );
    await knex.raw('CREATE INDEX submissions_search ON submissions USING GIN (project_id, search)');
    await knex.raw('DROP FUNCTION submission_search_vector(text)');
  },
};
