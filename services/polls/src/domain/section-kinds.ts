import { problems } from './problems.ts';
import {
  bordaCount,
  instantRunoff,
  rankBy,
  type BallotGroup,
  type BordaEntry,
  type IrvResult,
} from './ranked-count.ts';
import type {
  Availability,
  BallotAnswers,
  CounterSnapshot,
  OptionDoc,
  PollDoc,
  SectionDoc,
  SectionKind,
} from './types.ts';
import { checkChoices, type VoteInput } from './vote-rules.ts';

/**
 * Section kinds (docs/polls.md, "Section kinds"): what a section of each kind accepts when a
 * poll is created or edited, how a vote answers it, which counters a vote adds to, and the
 * section's results. `single` is spec 2.2's section, answered in `votes`; the other kinds are
 * answered in the vote's `answers` and add `section_results` to the results.
 */

/** A section's kind (`single` when the stored section has none). */
export const kindOf = (s: Pick<SectionDoc, 'kind'>): SectionKind => s.kind ?? 'single';

/** Whether a poll has a section that is not `single` (its results then carry `section_results`). */
export const hasKinds = (poll: Pick<PollDoc, 'sections'>): boolean =>
  poll.sections.some((s) => kindOf(s) !== 'single');

/** The kind fields of a section in a creation or update body (http/polls-schemas.ts). */
export interface SectionKindInput {
  kind?: SectionKind;
  min_choices?: number;
  max_choices?: number;
  options: Array<{ starts_at?: Date; ends_at?: Date }>;
}

/**
 * Adds the kind's fields to a section built from input (`index`: its place in the body, for
 * error names) and checks them: `multiple` takes `min_choices` (default 1) and `max_choices`
 * (default: every option) with 1 <= min <= max <= options; a `meeting` option needs `starts_at`
 * (and `ends_at`, if given, after it); only meeting options take times. `old`: the section it
 * updates, whose picked final slot is kept while that option is. Errors go to `errors` under
 * `sections.<index>...`.
 */
export function withKind(
  section: SectionDoc,
  input: SectionKindInput,
  index: number,
  errors: Record<string, string[]>,
  old?: SectionDoc,
): SectionDoc {
  const kind = input.kind ?? (old ? kindOf(old) : 'single');
  const at = `sections.${index}`;
  const out: SectionDoc = { ...section };
  if (kind !== 'single') out.kind = kind;
  if (kind !== 'multiple' && (input.min_choices !== undefined || input.max_choices !== undefined))
    errors[`${at}.max_choices`] = ['Only a section of kind multiple takes min_choices and max_choices.'];
  if (kind === 'multiple') {
    const n = section.options.length;
    const min = input.min_choices ?? old?.min_choices ?? 1;
    const max = input.max_choices ?? old?.max_choices ?? n;
    if (min > n)
      errors[`${at}.min_choices`] = [`The min_choices must be at most the number of options (${n}).`];
    if (max > n)
      errors[`${at}.max_choices`] = [`The max_choices must be at most the number of options (${n}).`];
    else if (max < min) errors[`${at}.max_choices`] = ['The max_choices must be at least min_choices.'];
    out.min_choices = min;
    out.max_choices = max;
  }
  out.options = section.options.map((o, j) => {
    const slot = input.options[j] ?? {};
    const option: OptionDoc = { id: o.id, label: o.label };
    if (kind !== 'meeting') {
      if (slot.starts_at || slot.ends_at)
        errors[`${at}.options.${j}.starts_at`] = ['Only the options of a meeting section are time slots.'];
      return option;
    }
    if (!slot.starts_at) {
      errors[`${at}.options.${j}.starts_at`] = ['The starts_at field is required for a meeting slot.'];
      return option;
    }
    option.starts_at = slot.starts_at.toISOString();
    if (slot.ends_at) {
      if (slot.ends_at <= slot.starts_at)
        errors[`${at}.options.${j}.ends_at`] = ['The ends_at must be a date after starts_at.'];
      option.ends_at = slot.ends_at.toISOString();
    }
    return option;
  });
  if (kind === 'meeting') {
    const final = old?.final_option_id;
    out.final_option_id = final && out.options.some((o) => o.id === final) ? final : null;
  }
  return out;
}

/** A vote's choices checked against the poll's sections (see {@link checkBallot}). */
export interface CheckedBallot {
  /** `single` sections: section id to option id (spec 2.2's `votes`). */
  choices: Record<string, string>;
  /** The other sections' answers; absent when the poll has none. */
  answers?: BallotAnswers;
  /** The options counted in `o:<option id>`, in section order. */
  optionIds: string[];
  /** The other counter fields the vote adds one to (types.ts, `VoteDoc.tallies`). */
  tallies: string[];
}

/** The counter field of one ranking of a ranked section: `k:<section id>|<option ids, comma-separated>`. */
const rankingField = (sectionId: string, ranking: readonly string[]): string =>
  `k:${sectionId}|${ranking.join(',')}`;

/**
 * Checks a vote's `votes` and `answers` against the poll (docs/polls.md, "Section kinds"):
 * `single` sections in `votes` (exactly one option of the section, spec 2.2), the others in
 * `answers`: `multiple` an array of `min_choices` to `max_choices` different options of the
 * section; `ranked` an array of 1 to all its options, most preferred first, each once;
 * `meeting` an object from option id to `yes`, `if_need_be` or `no` (options left out count as
 * `no`). A poll with only `single` sections is checked exactly as before kinds
 * (vote-rules.ts, `checkChoices`).
 * @throws ProblemError `validation_failed` with one `votes.<section id>` or `answers.<section
 *   id>` entry per section answered wrongly (or unknown).
 */
export function checkBallot(poll: PollDoc, input: Pick<VoteInput, 'votes' | 'answers'>): CheckedBallot {
  const votes = input.votes ?? {};
  if (!hasKinds(poll) && input.answers === undefined) {
    const optionIds = checkChoices(poll, votes);
    return { choices: votes, optionIds, tallies: [] };
  }
  const errors: Record<string, string[]> = {};
  const choices: Record<string, string> = {};
  const answers: BallotAnswers = {};
  const optionIds: string[] = [];
  const tallies: string[] = [];
  const given = input.answers ?? {};
  for (const section of poll.sections) {
    const kind = kindOf(section);
    const name = `"${section.title}"`;
    const belongs = (id: string) => section.options.some((o) => o.id === id);
    if (kind === 'single') {
      const optionId = votes[section.id];
      if (given[section.id] !== undefined)
        errors[`answers.${section.id}`] = [`Section ${name} takes one option: answer it in votes.`];
      if (optionId === undefined) errors[`votes.${section.id}`] = [`Choose one option in section ${name}.`];
      else if (!belongs(optionId))
        errors[`votes.${section.id}`] = [`Option ${optionId} does not belong to section ${name}.`];
      else {
        choices[section.id] = optionId;
        optionIds.push(optionId);
      }
      continue;
    }
    const key = `answers.${section.id}`;
    if (votes[section.id] !== undefined)
      errors[`votes.${section.id}`] = [`Section ${name} is of kind ${kind}: answer it in answers.`];
    const answer = given[section.id];
    if (kind === 'meeting') {
      if (answer === undefined || Array.isArray(answer) || typeof answer !== 'object') {
        errors[key] = [`Answer section ${name} with an object from option id to yes, if_need_be or no.`];
        continue;
      }
      const bad = Object.keys(answer).filter((id) => !belongs(id));
      if (bad.length) {
        errors[key] = [`Option ${bad[0]} does not belong to section ${name}.`];
        continue;
      }
      const complete: Record<string, Availability> = {};
      for (const o of section.options) {
        const a = answer[o.id] ?? 'no';
        complete[o.id] = a;
        if (a === 'yes') optionIds.push(o.id);
        else tallies.push(`${a === 'if_need_be' ? 'm' : 'n'}:${o.id}`);
      }
      answers[section.id] = complete;
      continue;
    }
    if (!Array.isArray(answer)) {
      errors[key] = [`Answer section ${name} with a list of option ids.`];
      continue;
    }
    const foreign = answer.find((id) => !belongs(id));
    if (foreign !== undefined) errors[key] = [`Option ${foreign} does not belong to section ${name}.`];
    else if (new Set(answer).size !== answer.length)
      errors[key] = [`Name each option of section ${name} once.`];
    else if (kind === 'multiple') {
      const min = section.min_choices ?? 1;
      const max = section.max_choices ?? section.options.length;
      if (answer.length < min || answer.length > max)
        errors[key] = [
          min === max
            ? `Choose ${min} option${min > 1 ? 's' : ''} in section ${name}.`
            : `Choose between ${min} and ${max} options in section ${name}.`,
        ];
      else {
        // Stored in the section's order: the same choices are the same answer.
        const chosen = section.options.filter((o) => answer.includes(o.id)).map((o) => o.id);
        answers[section.id] = chosen;
        optionIds.push(...chosen);
      }
    } else if (answer.length === 0) errors[key] = [`Rank at least one option in section ${name}.`];
    else {
      answers[section.id] = [...answer];
      optionIds.push(answer[0]!);
      tallies.push(rankingField(section.id, answer));
    }
  }
  for (const sectionId of Object.keys(votes))
    if (!poll.sections.some((s) => s.id === sectionId))
      errors[`votes.${sectionId}`] = [`Section ${sectionId} does not belong to this poll.`];
  for (const sectionId of Object.keys(given))
    if (!poll.sections.some((s) => s.id === sectionId))
      errors[`answers.${sectionId}`] = [`Section ${sectionId} does not belong to this poll.`];
  if (Object.keys(errors).length) throw problems.invalid({ errors });
  return { choices, answers, optionIds, tallies };
}

/** Whether two answers are the same (a retried vote's: voting.ts, `replayedAnswer`). */
export function sameAnswers(a: BallotAnswers | undefined, b: BallotAnswers | undefined): boolean {
  return JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
}

/** The ranked ballots of a section from the counters: one group per distinct ranking. */
function rankedBallots(section: SectionDoc, s: CounterSnapshot): BallotGroup[] {
  const prefix = `k:${section.id}|`;
  const groups: BallotGroup[] = [];
  for (const field in s.tallies)
    if (field.startsWith(prefix) && s.tallies[field]! > 0)
      groups.push({ ranking: field.slice(prefix.length).split(','), count: s.tallies[field]! });
  return groups;
}

/** A meeting slot's answers and its place (equal yes and if-need-be counts share a rank). */
interface SlotResult {
  option_id: string;
  starts_at: string | null;
  ends_at: string | null;
  yes: number;
  if_need_be: number;
  no: number;
  rank: number;
}

/** The results of one section that is not `single` (docs/polls.md, "Section results"). */
type SectionResult =
  | { section_id: string; kind: 'multiple'; ballots: number; counts: Record<string, number> }
  | {
      section_id: string;
      kind: 'ranked';
      ballots: number;
      first_preferences: Record<string, number>;
      instant_runoff: IrvResult;
      borda: BordaEntry[];
    }
  | {
      section_id: string;
      kind: 'meeting';
      ballots: number;
      slots: SlotResult[];
      best: string[];
      final_option_id: string | null;
    };

/**
 * The results of the poll's sections that are not `single`, from the counters alone (no vote
 * is read): `multiple` the count of each option; `ranked` the first preferences, the
 * instant-runoff rounds and the Borda count (ranked-count.ts) over one group of ballots per
 * distinct ranking; `meeting` every slot's yes / if need be / no, ranked by yes then if need be
 * (equal slots share a rank; `best` lists every slot ranked first: a tie shows as a tie), and
 * the final slot the owner picked. `ballots`: votes counted (every vote answers every section).
 */
export function sectionResults(poll: PollDoc, s: CounterSnapshot): SectionResult[] {
  const out: SectionResult[] = [];
  const ballots = s.total;
  for (const section of poll.sections) {
    const kind = kindOf(section);
    const ids = section.options.map((o) => o.id);
    const counts = Object.fromEntries(ids.map((id) => [id, s.options[id] ?? 0]));
    if (kind === 'multiple') out.push({ section_id: section.id, kind, ballots, counts });
    else if (kind === 'ranked') {
      const groups = rankedBallots(section, s);
      out.push({
        section_id: section.id,
        kind,
        ballots,
        first_preferences: counts,
        instant_runoff: instantRunoff(ids, groups),
        borda: bordaCount(ids, groups),
      });
    } else if (kind === 'meeting') {
      const maybe = (id: string) => s.tallies[`m:${id}`] ?? 0;
      const ranks = new Map(rankBy(ids, (id) => [counts[id]!, maybe(id)]).map((r) => [r.option_id, r.rank]));
      const slots = section.options
        .map((o) => ({
          option_id: o.id,
          starts_at: o.starts_at ?? null,
          ends_at: o.ends_at ?? null,
          yes: counts[o.id]!,
          if_need_be: maybe(o.id),
          no: s.tallies[`n:${o.id}`] ?? 0,
          rank: ranks.get(o.id)!,
        }))
        .sort((a, b) => a.rank - b.rank);
      out.push({
        section_id: section.id,
        kind,
        ballots,
        slots,
        best: ballots ? slots.filter((x) => x.rank === 1).map((x) => x.option_id) : [],
        final_option_id: section.final_option_id ?? null,
      });
    }
  }
  return out;
}
