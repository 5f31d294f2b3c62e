/**
 * Counting ranked ballots (docs/polls.md, "Section kinds", "Ranked: instant-runoff and
 * Borda"): pure functions over ballots grouped by their ranking, so the same count runs on the
 * live counters (one counter per distinct ranking) and on a published cast-vote record.
 *
 * Instant-runoff (IRV), as RCV jurisdictions tabulate it ("single-winner majority"): each round
 * gives every ballot to its highest-ranked continuing option; a ballot with none left is
 * exhausted. An option with more than half of the continuing ballots (at least
 * `floor(continuing / 2) + 1`) wins. Otherwise the last options are eliminated and the next
 * round transfers their ballots. Batch elimination: the largest group of lowest options whose
 * combined votes are fewer than the votes of the next option is eliminated at once (none of
 * them could overtake it, so the outcome is the one of eliminating them one by one; fewer
 * rounds and fewer ties to break). Without such a group the single lowest option goes.
 *
 * Ties, never broken silently (every broken tie is reported in its round's `tie`):
 * 1. an elimination between options with the same fewest votes eliminates the one with fewer
 *    votes in the latest earlier round where their counts differed ("previous rounds");
 * 2. still tied: the one with the lower Borda score over all ballots ("borda");
 * 3. still tied: the one listed last in the section ("option_order").
 * When every continuing option has the same number of votes (two options 50/50, or three at a
 * third each...) the count stops there with no winner: `tied_winners` names them, a tie shown
 * as a tie.
 */

/** Ballots that rank the same options in the same order (most preferred first), and how many. */
export interface BallotGroup {
  ranking: readonly string[];
  count: number;
}

/** How a tie between options with the fewest votes was broken (see the module's rules). */
interface TieBreak {
  /** The options that had the same fewest votes. */
  between: string[];
  rule: 'previous_rounds' | 'borda' | 'option_order';
  eliminated: string;
}

/** One round of instant-runoff. */
interface IrvRound {
  /** 1-based. */
  round: number;
  /** Votes of every continuing option this round (eliminated options are absent). */
  counts: Record<string, number>;
  /** Ballots with no continuing option left (including ballots that ranked none). */
  exhausted: number;
  /** Ballots counted for a continuing option. */
  continuing: number;
  /** Votes needed to win this round: `floor(continuing / 2) + 1`. */
  threshold: number;
  /** Options eliminated at the end of this round (empty in the last round). */
  eliminated: string[];
  /** The option that won in this round, if any. */
  elected: string | null;
  /** The tie broken to choose `eliminated`, if there was one. */
  tie: TieBreak | null;
}

/** The whole instant-runoff count. */
export interface IrvResult {
  rounds: IrvRound[];
  /** The winner; null without ballots or when the last round is a tie. */
  winner: string | null;
  /** The options tied in the last round when no winner could be named (else empty). */
  tied_winners: string[];
}

/** Borda score of one option and its rank (options with equal scores share a rank). */
export interface BordaEntry {
  option_id: string;
  score: number;
  /** 1-based; equal scores share the rank (1, 1, 3). */
  rank: number;
}

/** Options to {@link instantRunoff}. */
export interface IrvOptions {
  /**
   * Options removed before the first round (their rankings are skipped), as a tabulator
   * excludes a withdrawn candidate or, under Minneapolis rules, undeclared write-ins.
   */
  excluded?: readonly string[];
}

/**
 * The Borda count of ranked ballots with `n` options: a ballot gives `n - 1` points to its
 * first choice, `n - 2` to its second..., and 0 to the options it does not rank (truncated
 * ballots give nothing to unranked options). Highest score first; equal scores share a rank
 * and keep the section's option order.
 */
export function bordaCount(options: readonly string[], ballots: readonly BallotGroup[]): BordaEntry[] {
  const n = options.length;
  const score = new Map(options.map((o) => [o, 0]));
  for (const b of ballots) {
    b.ranking.forEach((o, i) => {
      if (score.has(o)) score.set(o, score.get(o)! + (n - 1 - i) * b.count);
    });
  }
  return rankBy(options, (o) => [score.get(o)!]).map(({ option_id, rank }) => ({
    option_id,
    score: score.get(option_id)!,
    rank,
  }));
}

/**
 * Options sorted by their `keys` (compared in order, higher first), each with its 1-based rank;
 * options whose keys are all equal share a rank and keep their given order.
 */
export function rankBy(
  options: readonly string[],
  keys: (o: string) => number[],
): Array<{ option_id: string; rank: number }> {
  const cmp = (a: string, b: string): number => {
    const ka = keys(a);
    const kb = keys(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i]! - ka[i]!;
    return 0;
  };
  const sorted = options.map((o, i) => ({ o, i })).sort((x, y) => cmp(x.o, y.o) || x.i - y.i);
  let rank = 0;
  return sorted.map((s, i) => {
    if (i === 0 || cmp(sorted[i - 1]!.o, s.o) !== 0) rank = i + 1;
    return { option_id: s.o, rank };
  });
}

/**
 * Instant-runoff over `options` (in the section's order, which the last tie-break uses) and the
 * grouped ballots (module comment: rules, batch elimination, ties). Rankings may name an option
 * twice or options not in `options`: those entries are skipped. Deterministic: the result
 * depends only on the multiset of ballots, never on their order.
 */
export function instantRunoff(
  options: readonly string[],
  ballots: readonly BallotGroup[],
  { excluded = [] }: IrvOptions = {},
): IrvResult {
  const known = new Set(options.filter((o) => !excluded.includes(o)));
  // Each group's ranking cleaned once: known options, first mention only.
  const groups = ballots
    .filter((b) => b.count > 0)
    .map((b) => ({ ranking: [...new Set(b.ranking.filter((o) => known.has(o)))], count: b.count }));
  const continuing = new Set(known);
  const rounds: IrvRound[] = [];
  let borda: Map<string, number> | null = null;
  const bordaOf = (o: string): number => {
    borda ??= new Map(bordaCount(options, ballots).map((e) => [e.option_id, e.score]));
    return borda.get(o) ?? 0;
  };
  const total = groups.reduce((a, b) => a + b.count, 0);
  if (total === 0 || continuing.size === 0) return { rounds, winner: null, tied_winners: [] };
  for (;;) {
    const counts: Record<string, number> = {};
    for (const o of options) if (continuing.has(o)) counts[o] = 0;
    let exhausted = 0;
    for (const g of groups) {
      const top = g.ranking.find((o) => continuing.has(o));
      if (top === undefined) exhausted += g.count;
      else counts[top]! += g.count;
    }
    const live = total - exhausted;
    const threshold = Math.floor(live / 2) + 1;
    const round: IrvRound = {
      round: rounds.length + 1,
      counts,
      exhausted,
      continuing: live,
      threshold,
      eliminated: [],
      elected: null,
      tie: null,
    };
    rounds.push(round);
    const alive = options.filter((o) => continuing.has(o));
    const leader = alive.find((o) => counts[o]! >= threshold && live > 0);
    if (leader !== undefined) {
      round.elected = leader;
      return { rounds, winner: leader, tied_winners: [] };
    }
    if (alive.length === 1) {
      round.elected = alive[0]!;
      return { rounds, winner: alive[0]!, tied_winners: [] };
    }
    if (alive.every((o) => counts[o] === counts[alive[0]!])) {
      // Every continuing option has the same votes: a tie, not decided by any rule.
      return { rounds, winner: null, tied_winners: alive };
    }
    const { eliminated, tie } = toEliminate(alive, counts, rounds, bordaOf);
    round.eliminated = eliminated;
    round.tie = tie;
    for (const o of eliminated) continuing.delete(o);
  }
}

/** The options eliminated after a round that elected no one (batch, else the lowest; ties broken). */
function toEliminate(
  alive: readonly string[],
  counts: Record<string, number>,
  rounds: readonly IrvRound[],
  bordaOf: (o: string) => number,
): { eliminated: string[]; tie: TieBreak | null } {
  // Lowest first; equal counts in section order (only the batch rule reads this order, and a
  // batch takes all options with equal counts or none of them).
  const ascending = [...alive].sort((a, b) => counts[a]! - counts[b]!);
  let batch = 0;
  let sum = 0;
  for (let k = 1; k < ascending.length; k++) {
    sum += counts[ascending[k - 1]!]!;
    if (sum < counts[ascending[k]!]!) batch = k;
  }
  if (batch >= 2) return { eliminated: ascending.slice(0, batch), tie: null };
  const fewest = counts[ascending[0]!]!;
  const lowest = alive.filter((o) => counts[o] === fewest);
  if (lowest.length === 1) return { eliminated: lowest, tie: null };
  // 1. Previous rounds, latest first: keep those with the fewest votes where counts differed.
  let tied = [...lowest];
  for (let r = rounds.length - 2; r >= 0 && tied.length > 1; r--) {
    const c = rounds[r]!.counts;
    const min = Math.min(...tied.map((o) => c[o] ?? 0));
    const next = tied.filter((o) => (c[o] ?? 0) === min);
    if (next.length < tied.length) tied = next;
  }
  if (tied.length === 1)
    return { eliminated: tied, tie: { between: lowest, rule: 'previous_rounds', eliminated: tied[0]! } };
  // 2. Lowest Borda score.
  const minBorda = Math.min(...tied.map(bordaOf));
  const byBorda = tied.filter((o) => bordaOf(o) === minBorda);
  if (byBorda.length === 1)
    return { eliminated: byBorda, tie: { between: lowest, rule: 'borda', eliminated: byBorda[0]! } };
  // 3. The one listed last in the section.
  const last = byBorda[byBorda.length - 1]!;
  return { eliminated: [last], tie: { between: lowest, rule: 'option_order', eliminated: last } };
}
