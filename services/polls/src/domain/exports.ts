import { requireAccess } from './access.ts';
import type { PollsContext } from './context.ts';
import { problems } from './problems.ts';
import { kindOf, sectionResults } from './section-kinds.ts';
import type { Actor, Availability, BallotAnswers, PollDoc, SectionDoc, VoteDoc } from './types.ts';

/**
 * Exports of a poll (issue 37, part 3; docs/polls.md, "Exports"): its counted votes or its
 * results as one table, which the HTTP edge writes as CSV or XLSX. Owner only: the owner sees
 * everything whatever the poll's result visibility (docs/polls.md, "Result visibility").
 */

/** A cell: text, a number, or empty. */
export type Cell = string | number | null;

/** One table to write: its name (file and sheet), its header, its rows (read as they are written). */
export interface ExportTable {
  /** `<poll title slug>-votes` or `-results`: the file name without extension. */
  name: string;
  /** The sheet's name (XLSX). */
  sheet: 'Votes' | 'Results';
  header: string[];
  rows: AsyncIterable<Cell[]>;
}

/** What an export holds. */
export type ExportContent = 'votes' | 'results';

/** Command of {@link exportPoll}. */
export interface ExportPoll {
  pollId: string;
  actor: Actor;
  content: ExportContent;
}

const AVAILABILITY: Record<Availability, string> = { yes: 'yes', if_need_be: 'if need be', no: 'no' };

/** A file name of ASCII letters, digits and dashes (the title's, at most 60 characters). */
const slug = (title: string): string =>
  title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '')
    .toLowerCase() || 'poll';

/** A section's answer in a vote, as one cell of text (option labels). */
function answerCell(section: SectionDoc, vote: VoteDoc): string {
  const label = (id: string) => section.options.find((o) => o.id === id)?.label ?? id;
  const kind = kindOf(section);
  if (kind === 'single') {
    const chosen = vote.choices[section.id];
    return chosen ? label(chosen) : '';
  }
  const answer = (vote.answers ?? ({} as BallotAnswers))[section.id];
  if (!answer) return '';
  if (Array.isArray(answer)) return answer.map(label).join(kind === 'ranked' ? ' > ' : '; ');
  return section.options.map((o) => `${o.label}: ${AVAILABILITY[answer[o.id] ?? 'no']}`).join('; ');
}

/** The votes table: one row per counted vote, oldest first, one column per section. */
function votesTable(ctx: PollsContext, poll: PollDoc): ExportTable {
  const header = ['vote_id', 'created_at', 'voter_name', 'user_id', 'seq', 'verified', 'time_spent'];
  for (const s of poll.sections) header.push(s.title);
  async function* rows(): AsyncIterable<Cell[]> {
    for await (const v of ctx.votes.everyOfPoll(poll._id))
      yield [
        v._id,
        v.created_at,
        v.voter_name,
        v.user_id,
        v.seq,
        v.verified ? 'yes' : 'no',
        v.time_spent,
        ...poll.sections.map((s) => answerCell(s, v)),
      ];
  }
  return { name: `${slug(poll.title)}-votes`, sheet: 'Votes', header, rows: rows() };
}

/**
 * Ranks by `votes`, highest first; equal counts share a rank (1, 1, 3): a tie stays a tie.
 * Returns option id to rank.
 */
function sharedRanks(ids: string[], votes: (id: string) => number): Map<string, number> {
  const sorted = [...ids].sort((a, b) => votes(b) - votes(a));
  const ranks = new Map<string, number>();
  sorted.forEach((id, i) => {
    const prev = sorted[i - 1];
    ranks.set(id, prev !== undefined && votes(prev) === votes(id) ? ranks.get(prev)! : i + 1);
  });
  return ranks;
}

/**
 * The results table: one row per option, in the poll's order, with `votes` (chosen; ranked:
 * first preferences; meeting: yes), `percent` of the ballots, `rank` (equal counts share it),
 * and per kind `borda_score` and `outcome` (ranked: `winner` or `tied` from the instant runoff),
 * `if_need_be` and `no` (meeting), `final` (the meeting slot the owner picked).
 */
async function resultsTable(ctx: PollsContext, poll: PollDoc): Promise<ExportTable> {
  const s = await ctx.counters.read(poll._id);
  const kinds = new Map(sectionResults(poll, s).map((r) => [r.section_id, r]));
  const header = [
    'section',
    'kind',
    'option',
    'votes',
    'percent',
    'rank',
    'borda_score',
    'outcome',
    'if_need_be',
    'no',
  ];
  const out: Cell[][] = [];
  for (const section of poll.sections) {
    const ids = section.options.map((o) => o.id);
    const votes = (id: string) => s.options[id] ?? 0;
    const ranks = sharedRanks(ids, votes);
    const kind = kindOf(section);
    const result = kinds.get(section.id);
    const irv = result?.kind === 'ranked' ? result.instant_runoff : null;
    for (const o of section.options) {
      const borda = result?.kind === 'ranked' ? result.borda.find((b) => b.option_id === o.id) : undefined;
      const slot = result?.kind === 'meeting' ? result.slots.find((x) => x.option_id === o.id) : undefined;
      const outcome = irv
        ? irv.winner === o.id
          ? 'winner'
          : irv.tied_winners.includes(o.id)
            ? 'tied'
            : ''
        : result?.kind === 'meeting' && result.final_option_id === o.id
          ? 'final'
          : '';
      out.push([
        section.title,
        kind,
        o.label,
        votes(o.id),
        s.total ? Math.round((votes(o.id) / s.total) * 1000) / 10 : 0,
        slot ? slot.rank : ranks.get(o.id)!,
        borda ? borda.score : null,
        outcome,
        slot ? slot.if_need_be : null,
        slot ? slot.no : null,
      ]);
    }
  }
  async function* rows(): AsyncIterable<Cell[]> {
    yield* out;
  }
  return { name: `${slug(poll.title)}-results`, sheet: 'Results', header, rows: rows() };
}

/**
 * `GET /polls/{poll_id}/export?content=votes|results&format=csv|xlsx` (docs/polls.md,
 * "Exports"): the table to write. Votes are read with a cursor as the file is written.
 * An anonymous poll's ballots are not exported one by one (their choices with their hour would
 * join them to the register's voters, their ids are the receipts): only its results.
 * @throws ProblemError 401 signed out; 404 unknown poll; 403 not the poll's owner; 422
 *   `content` votes of an anonymous poll.
 */
export async function exportPoll(ctx: PollsContext, command: ExportPoll): Promise<ExportTable> {
  const { poll } = await requireAccess(ctx, {
    actor: command.actor,
    permission: 'poll.manage',
    pollId: command.pollId,
  });
  if (command.content === 'votes' && poll.settings.anonymous === true)
    throw problems.invalid({
      errors: {
        content: ['This poll is anonymous: its ballots are not exported one by one, only its results.'],
      },
    });
  return command.content === 'votes' ? votesTable(ctx, poll) : resultsTable(ctx, poll);
}
