import { expect } from 'chai';
import { searchVectorSql } from '../src/migrations/007-search-prefixes.ts';
import { startHarness, type Harness } from './harness.ts';

describe('collection: search vector of migration 009 equals the one of migration 007', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    // migration 007's function, kept here under another name to compare against
    await h.db.raw(searchVectorSql('CREATE', 'search_vector_007'));
  });
  after(async () => h?.close());

  it('gives the same lexemes for every kind of text', async () => {
    const texts = [
      '',
      '   ',
      'Amina Kolda',
      'amina amina AMINA am',
      'a b c',
      'Supercalifragilisticexpialidocious and twentycharacterword twentyonecharacterword',
      "L'école de Saint-Louis, 12-B; n°42 (rare42) éàü ÇA",
      'maize millet groundnut goat cow female yes',
      '42 3.14 2024-01-04 ab-1234',
      '漢字 テスト עברית',
    ];
    for (const t of texts) {
      const { rows } = (await h.db.raw(
        'SELECT submission_search_vector(?) = search_vector_007(?) AS same, submission_search_vector(?)::text AS v',
        [t, t, t],
      )) as { rows: Array<{ same: boolean; v: string }> };
      expect(rows[0]!.same, `${JSON.stringify(t)} gave ${rows[0]!.v}`).to.equal(true);
    }
    const { rows } = (await h.db.raw('SELECT submission_search_vector(NULL) IS NULL AS n')) as {
      rows: Array<{ n: boolean }>;
    };
    expect(rows[0]!.n).to.equal(true);
  });
});
