import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import fc from 'fast-check';
import { bordaCount, instantRunoff, type BallotGroup } from '../src/domain/ranked-count.ts';

/**
 * The ballots of the 2017 Minneapolis mayoral election (the fixture's header names the source,
 * RCTab's test suite, and its licence, MPL 2.0), grouped by ranking.
 */
function minneapolis2017(): BallotGroup[] {
  const text = readFileSync(
    new URL('./fixtures/minneapolis-2017-mayor.ballots.tsv', import.meta.url),
    'utf8',
  );
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [count, ranking = ''] = line.split('\t');
      return { count: Number(count), ranking: ranking ? ranking.split('>') : [] };
    });
}

const CANDIDATES = [
  'Jacob Frey',
  'Tom Hoch',
  'Betsy Hodges',
  'Raymond Dehn',
  'Nekima Levy-Pounds',
  'Charlie Gers',
  'Aswar Rahman',
  'Al Flowers',
  'L.A. Nik',
  'David Rosenfeld',
  'Captain Jack Sparrow',
  'Gregg A. Iverson',
  'Ronald Lischeid',
  'David John Wilson',
  'Troy Benjegerdes',
  'Ian Simpson',
  'Christopher Zimmerman',
  'Theron Preston Washington',
  'UWI',
];

/**
 * The round-by-round result of that contest as RCTab's test suite expects it
 * (2017_minneapolis_mayor_expected_detailed_report.csv, same commit as the fixture): the votes
 * of every continuing candidate, the inactive ballots, and who was eliminated, per round.
 * Round 1 eliminates the undeclared write-ins alone (a Minneapolis rule); round 2 the 13 lowest
 * candidates at once (batch elimination); Jacob Frey wins in round 6 with 46,704 of 81,674.
 */
const OFFICIAL = [
  {
    counts: {
      'Jacob Frey': 26104,
      'Tom Hoch': 20122,
      'Betsy Hodges': 18905,
      'Raymond Dehn': 18100,
      'Nekima Levy-Pounds': 15715,
      'Charlie Gers': 1233,
      'Aswar Rahman': 751,
      'Al Flowers': 711,
      'L.A. Nik': 612,
      'David Rosenfeld': 476,
      'Captain Jack Sparrow': 438,
      'Gregg A. Iverson': 335,
      'Ronald Lischeid': 321,
      'David John Wilson': 220,
      'Troy Benjegerdes': 184,
      'Ian Simpson': 119,
      'Christopher Zimmerman': 1,
      'Theron Preston Washington': 0,
      UWI: 137,
    },
    inactive: 75,
    threshold: 52243,
    eliminated: ['UWI'],
  },
  {
    counts: {
      'Jacob Frey': 26112,
      'Tom Hoch': 20128,
      'Betsy Hodges': 18911,
      'Raymond Dehn': 18103,
      'Nekima Levy-Pounds': 15717,
      'Charlie Gers': 1238,
      'Aswar Rahman': 751,
      'Al Flowers': 713,
      'L.A. Nik': 616,
      'David Rosenfeld': 479,
      'Captain Jack Sparrow': 443,
      'Gregg A. Iverson': 337,
      'Ronald Lischeid': 321,
      'David John Wilson': 224,
      'Troy Benjegerdes': 185,
      'Ian Simpson': 119,
      'Christopher Zimmerman': 1,
      'Theron Preston Washington': 0,
    },
    inactive: 161,
    threshold: 52200,
    eliminated: [
      'Al Flowers',
      'Aswar Rahman',
      'Captain Jack Sparrow',
      'Charlie Gers',
      'Christopher Zimmerman',
      'David John Wilson',
      'David Rosenfeld',
      'Gregg A. Iverson',
      'Ian Simpson',
      'L.A. Nik',
      'Ronald Lischeid',
      'Theron Preston Washington',
      'Troy Benjegerdes',
    ],
  },
  {
    counts: {
      'Jacob Frey': 26738,
      'Tom Hoch': 20909,
      'Betsy Hodges': 19457,
      'Raymond Dehn': 18573,
      'Nekima Levy-Pounds': 16188,
    },
    inactive: 2694,
    threshold: 50933,
    eliminated: ['Nekima Levy-Pounds'],
  },
  {
    counts: { 'Jacob Frey': 29468, 'Tom Hoch': 22751, 'Betsy Hodges': 23501, 'Raymond Dehn': 24027 },
    inactive: 4812,
    threshold: 49874,
    eliminated: ['Tom Hoch'],
  },
  {
    counts: { 'Jacob Frey': 39356, 'Betsy Hodges': 26865, 'Raymond Dehn': 27357 },
    inactive: 10981,
    threshold: 46790,
    eliminated: ['Betsy Hodges'],
  },
  {
    counts: { 'Jacob Frey': 46704, 'Raymond Dehn': 34970 },
    inactive: 22885,
    threshold: 40838,
    eliminated: [],
  },
];

describe('ranked ballots: instant-runoff and Borda (domain/ranked-count.ts)', () => {
  describe('a real election: 2017 Minneapolis mayor, 104,559 ballots (fixture from RCTab, MPL 2.0)', () => {
    const ballots = minneapolis2017();

    it('the fixture holds the contest’s 104,559 ballots with marks (105,928 rows less 1,369 undervotes)', () => {
      expect(ballots.reduce((a, b) => a + b.count, 0)).to.equal(104_559);
    });

    it('round 1 (first choices, write-ins included) equals the official round 1', () => {
      const round1 = instantRunoff(CANDIDATES, ballots).rounds[0]!;
      expect(round1.counts).to.deep.equal(OFFICIAL[0]!.counts);
      expect(round1.exhausted).to.equal(OFFICIAL[0]!.inactive);
      expect(round1.threshold).to.equal(OFFICIAL[0]!.threshold);
    });

    it('with the write-ins eliminated first (Minneapolis rule), every later round equals the official rounds 2 to 6', () => {
      const result = instantRunoff(CANDIDATES, ballots, { excluded: ['UWI'] });
      expect(result.rounds).to.have.length(5);
      result.rounds.forEach((round, i) => {
        const official = OFFICIAL[i + 1]!;
        expect(round.counts, `round ${i + 2}`).to.deep.equal(official.counts);
        expect(round.exhausted, `round ${i + 2} inactive`).to.equal(official.inactive);
        expect(round.threshold, `round ${i + 2} threshold`).to.equal(official.threshold);
        expect([...round.eliminated].sort(), `round ${i + 2} eliminated`).to.deep.equal(official.eliminated);
        expect(round.tie).to.equal(null);
      });
      expect(result.winner).to.equal('Jacob Frey');
      expect(result.rounds.at(-1)!.elected).to.equal('Jacob Frey');
      expect(result.tied_winners).to.deep.equal([]);
    });

    it('Borda count over the same ballots (3 ranks of 19 options): Frey first', () => {
      const borda = bordaCount(CANDIDATES, ballots);
      expect(borda[0]).to.include({ option_id: 'Jacob Frey', rank: 1 });
      const total = borda.reduce((a, b) => a + b.score, 0);
      // Each ranked choice at position i is worth 18 - i points.
      let expected = 0;
      for (const b of ballots) b.ranking.forEach((_, i) => (expected += (18 - i) * b.count));
      expect(total).to.equal(expected);
    });
  });

  describe('ties: broken by a documented rule and reported, or shown as ties', () => {
    it('a 1-1 tie between the last two options is a tie: no winner, both named', () => {
      const r = instantRunoff(
        ['a', 'b'],
        [
          { ranking: ['a', 'b'], count: 1 },
          { ranking: ['b', 'a'], count: 1 },
        ],
      );
      expect(r.winner).to.equal(null);
      expect(r.tied_winners).to.deep.equal(['a', 'b']);
      expect(r.rounds).to.have.length(1);
    });

    it('a three-way tie in every round is a tie of the three', () => {
      const r = instantRunoff(
        ['a', 'b', 'c'],
        [
          { ranking: ['a'], count: 2 },
          { ranking: ['b'], count: 2 },
          { ranking: ['c'], count: 2 },
        ],
      );
      expect(r).to.deep.include({ winner: null, tied_winners: ['a', 'b', 'c'] });
    });

    it('rule 1: the tied option with fewer votes in an earlier round is eliminated', () => {
      // Round 1: a 4, b 3, c 2, d 1 (batch: c and d? 3 < 3 is false, so d alone).
      // Round 2: d's ballot goes to c: a 4, b 3, c 3: b and c tie; round 1 had b 3, c 2: c goes.
      const r = instantRunoff(
        ['a', 'b', 'c', 'd'],
        [
          { ranking: ['a'], count: 4 },
          { ranking: ['b'], count: 3 },
          { ranking: ['c'], count: 2 },
          { ranking: ['d', 'c'], count: 1 },
        ],
      );
      expect(r.rounds[0]!.eliminated).to.deep.equal(['d']);
      expect(r.rounds[1]!.tie).to.deep.equal({
        between: ['b', 'c'],
        rule: 'previous_rounds',
        eliminated: 'c',
      });
      expect(r.rounds[1]!.eliminated).to.deep.equal(['c']);
    });

    it('rule 2: with equal history, the lower Borda score is eliminated', () => {
      // a 3, b 2, c 2 in round 1 (no earlier round); b is ranked second on a's ballots.
      const r = instantRunoff(
        ['a', 'b', 'c'],
        [
          { ranking: ['a', 'b'], count: 3 },
          { ranking: ['b'], count: 2 },
          { ranking: ['c'], count: 2 },
        ],
      );
      expect(r.rounds[0]!.tie).to.deep.equal({ between: ['b', 'c'], rule: 'borda', eliminated: 'c' });
      expect(r.winner).to.equal('a');
    });

    it('rule 3: with equal history and Borda scores, the option listed last is eliminated', () => {
      const r = instantRunoff(
        ['a', 'b', 'c'],
        [
          { ranking: ['a'], count: 3 },
          { ranking: ['b'], count: 2 },
          { ranking: ['c'], count: 2 },
        ],
      );
      expect(r.rounds[0]!.tie).to.deep.equal({ between: ['b', 'c'], rule: 'option_order', eliminated: 'c' });
      // Round 2: a 3, b 2, c's ballots exhausted: a has 3 of 5 continuing.
      expect(r.rounds[1]).to.deep.include({ elected: 'a', exhausted: 2, continuing: 5, threshold: 3 });
    });

    it('Borda ranks: equal scores share a rank', () => {
      const borda = bordaCount(
        ['a', 'b', 'c'],
        [
          { ranking: ['a', 'b'], count: 1 },
          { ranking: ['b', 'a'], count: 1 },
        ],
      );
      expect(borda).to.deep.equal([
        { option_id: 'a', score: 3, rank: 1 },
        { option_id: 'b', score: 3, rank: 1 },
        { option_id: 'c', score: 0, rank: 3 },
      ]);
    });

    it('no ballots: no rounds, no winner', () => {
      expect(instantRunoff(['a', 'b'], [])).to.deep.equal({ rounds: [], winner: null, tied_winners: [] });
    });
  });

  describe('properties (fast-check)', () => {
    const OPTIONS = ['a', 'b', 'c', 'd', 'e'];
    const ranking = fc.shuffledSubarray(OPTIONS, { minLength: 0, maxLength: OPTIONS.length });
    const ballotList = fc.array(ranking, { minLength: 0, maxLength: 60 });
    const groups = (list: string[][]): BallotGroup[] => list.map((r) => ({ ranking: r, count: 1 }));

    it('an option ranked first by a majority of all ballots always wins, in round 1', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...OPTIONS),
          ballotList,
          fc.array(ranking, { minLength: 1, maxLength: 40 }),
          (favourite, others, tails) => {
            // More ballots with `favourite` first than all the others together.
            const majority = Array.from({ length: others.length + 1 }, (_, i) => [
              favourite,
              ...tails[i % tails.length]!.filter((o) => o !== favourite),
            ]);
            const result = instantRunoff(OPTIONS, groups([...others, ...majority]));
            expect(result.winner).to.equal(favourite);
            expect(result.rounds).to.have.length(1);
          },
        ),
      );
    });

    it('the count does not depend on the order of the ballots (nor on how they are grouped)', () => {
      fc.assert(
        fc.property(ballotList, fc.infiniteStream(fc.nat()), (list, seeds) => {
          const shuffled = [...list];
          const it = seeds[Symbol.iterator]();
          for (let i = shuffled.length - 1; i > 0; i--) {
            const j = it.next().value! % (i + 1);
            [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
          }
          const grouped = new Map<string, number>();
          for (const r of list) grouped.set(r.join('>'), (grouped.get(r.join('>')) ?? 0) + 1);
          const asGroups = [...grouped].map(([k, count]) => ({ ranking: k ? k.split('>') : [], count }));
          const a = instantRunoff(OPTIONS, groups(list));
          expect(instantRunoff(OPTIONS, groups(shuffled))).to.deep.equal(a);
          expect(instantRunoff(OPTIONS, asGroups)).to.deep.equal(a);
          expect(bordaCount(OPTIONS, groups(shuffled))).to.deep.equal(bordaCount(OPTIONS, groups(list)));
        }),
      );
    });

    it('every round accounts for every ballot, and the winner has a majority of the continuing ballots', () => {
      fc.assert(
        fc.property(ballotList, (list) => {
          const r = instantRunoff(OPTIONS, groups(list));
          for (const round of r.rounds) {
            const sum = Object.values(round.counts).reduce((a, b) => a + b, 0);
            expect(sum + round.exhausted).to.equal(list.length);
            expect(round.continuing).to.equal(sum);
          }
          if (r.winner !== null) {
            const last = r.rounds.at(-1)!;
            expect(last.counts[r.winner]! * 2).to.be.greaterThan(last.continuing);
          } else if (list.some((b) => b.length)) expect(r.tied_winners.length).to.be.greaterThan(1);
        }),
      );
    });
  });
});
