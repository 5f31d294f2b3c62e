import { Exchanges } from '@fieldhouse/contracts';
import { requireAccess } from './access.ts';
import type { PollsContext } from './context.ts';
import { newId, shortId } from './ids.ts';
import { DEFAULT_SETTINGS, mergeSettings, type PollInput, type SectionInput } from './poll-input.ts';
import { problems } from './problems.ts';
import type { Actor, PollDoc, SectionDoc } from './types.ts';
import { kindOf, withKind } from './section-kinds.ts';
import { pollClosedMessage } from './changes.ts';

/** Command of {@link getPoll}: the poll and who reads it. */
export interface GetPoll {
  pollId: string;
  actor: Actor;
}

/**
 * `GET /api/polls/{poll_id}`: the poll (anyone may read a poll).
 * @throws ProblemError `not_found` when no poll has this id.
 */
export async function getPoll(ctx: PollsContext, { pollId, actor }: GetPoll): Promise<PollDoc> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.read', pollId });
  return poll;
}

/**
 * Builds sections from input, keeping the ids of existing sections and options named by `id`
 * and giving new ids to the others. An unknown id is a 422.
 */
function buildSections(input: SectionInput[], existing: SectionDoc[]): SectionDoc[] {
  const errors: Record<string, string[]> = {};
  const sections = input.map((s, i) => {
    const old = s.id !== undefined ? existing.find((e) => e.id === s.id) : undefined;
    if (s.id !== undefined && !old)
      errors[`sections.${i}.id`] = [`Section ${s.id} is not part of this poll.`];
    const section = {
      id: old?.id ?? shortId('s'),
      title: s.title,
      options: s.options.map((o, j) => {
        const oldOption = o.id !== undefined ? old?.options.find((e) => e.id === o.id) : undefined;
        if (o.id !== undefined && !oldOption)
          errors[`sections.${i}.options.${j}.id`] = [`Option ${o.id} is not part of this section.`];
        return { id: oldOption?.id ?? shortId('o'), label: o.label };
      }),
    };
    return withKind(section, s, i, errors, old);
  });
  if (Object.keys(errors).length) throw problems.invalid({ errors });
  return sections;
}

/** Command of {@link createPoll}: the signed-in user and the validated creation body. */
export interface CreatePoll {
  ownerId: number;
  input: PollInput;
}

/**
 * Creates a poll owned by `ownerId` (design.md's creation body; settings default per
 * docs/polls.md, "Settings"), with new ids for its sections and options.
 * @throws ProblemError 422 when `settings.ends_at` is not after `starts_at`.
 */
export async function createPoll(ctx: PollsContext, { ownerId, input }: CreatePoll): Promise<PollDoc> {
  const now = new Date().toISOString();
  const poll: PollDoc = {
    _id: newId(),
    owner_id: ownerId,
    title: input.title!,
    description: input.description || null,
    sections: buildSections(input.sections!, []),
    settings: mergeSettings(DEFAULT_SETTINGS, input.settings),
    closed: false,
    closed_at: null,
    achievements: {},
    created_at: now,
    updated_at: now,
  };
  await ctx.inTransaction(async () => ctx.polls.insert(poll));
  // Counters from the start, so the first vote's counter step is atomic like every other
  // (it records the first_vote milestone: domain/results.ts, recordReachedMilestone).
  await ctx.counters.rebuild(poll._id);
  return poll;
}

/** The caller's own polls, one page of them (newest first), and how many they have. */
export interface ListOwnPolls {
  ownerId: number;
  page: number;
  perPage: number;
}

/** `GET /api/polls?page&per_page`: the caller's polls, newest first, and their total. */
export function listOwnPolls(
  ctx: PollsContext,
  { ownerId, page, perPage }: ListOwnPolls,
): Promise<{ items: PollDoc[]; total: number }> {
  return ctx.polls.listByOwner(ownerId, (page - 1) * perPage, perPage);
}

/** Command of {@link updatePoll}: which poll, who asks, and the validated changes. */
export interface UpdatePoll {
  pollId: string;
  actor: Actor;
  input: PollInput;
}

/**
 * Updates title, description, sections (the full new list: give `id` to keep a section or an
 * option) and settings; owner only. An option or section that has counted votes cannot be
 * removed (422 naming it). Votes already counted keep their counts. Open live-results streams
 * get the results again (a new `results_visibility` or end time shows at once).
 * @throws ProblemError 404 unknown poll; 403 not the owner; 422 unknown section or option id,
 *   an option with votes removed, `ends_at` not after `starts_at`.
 */
export async function updatePoll(ctx: PollsContext, { pollId, actor, input }: UpdatePoll): Promise<PollDoc> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.manage', pollId });
  const next: PollDoc = { ...poll, updated_at: new Date().toISOString() };
  if (input.title !== undefined) next.title = input.title;
  if (input.description !== undefined) next.description = input.description || null;
  if (input.settings) next.settings = mergeSettings(poll.settings, input.settings);
  if (input.sections) {
    next.sections = buildSections(input.sections, poll.sections);
    await refuseKindChanges(ctx, poll, next);
    const kept = new Set(next.sections.flatMap((s) => s.options.map((o) => o.id)));
    const removed = poll.sections.flatMap((s) =>
      s.options.filter((o) => !kept.has(o.id)).map((o) => ({ s, o })),
    );
    const voted = await ctx.votes.anyChose(
      poll._id,
      removed.map((r) => r.o.id),
    );
    if (voted.length) {
      const errors: Record<string, string[]> = {};
      for (const { s, o } of removed.filter((r) => voted.includes(r.o.id)))
        errors[`sections.${s.id}.options.${o.id}`] = [
          `The option "${o.label}" has votes and cannot be removed.`,
        ];
      throw problems.invalid({ errors });
    }
  }
  await ctx.inTransaction(async () => ctx.polls.save(next));
  // Open result streams (on every replica) show the edit: a new visibility, title, end time...
  await ctx.live.publish(poll._id);
  return next;
}

/**
 * A section's answers are stored in its kind's shape: once the poll has votes, a kept section
 * may not change its kind (422 naming `sections.<index>.kind`).
 */
async function refuseKindChanges(ctx: PollsContext, poll: PollDoc, next: PollDoc): Promise<void> {
  const changed = next.sections
    .map((s, i) => ({ s, i, old: poll.sections.find((o) => o.id === s.id) }))
    .filter(({ s, old }) => old && kindOf(old) !== kindOf(s));
  if (!changed.length || (await ctx.counters.read(poll._id)).total === 0) return;
  throw problems.invalid({
    errors: Object.fromEntries(
      changed.map(({ s, i }) => [
        `sections.${i}.kind`,
        [`Section "${s.title}" has votes: its kind cannot change.`],
      ]),
    ),
  });
}

/** Command of {@link setClosed}: which poll, who asks, and whether it closes or reopens. */
export interface SetClosed {
  pollId: string;
  actor: Actor;
  closed: boolean;
}

/**
 * Closes (no more votes) or reopens a poll; owner only. Open live-results streams get the new
 * state at once.
 * @throws ProblemError 404 unknown poll; 403 not the owner.
 */
export async function setClosed(ctx: PollsContext, { pollId, actor, closed }: SetClosed): Promise<PollDoc> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.manage', pollId });
  const now = new Date().toISOString();
  const next: PollDoc = { ...poll, closed, closed_at: closed ? now : null, updated_at: now };
  // Closing an open poll is a `poll.closed` webhook event, with the results at that moment;
  // when its message cannot be written, the poll is put back as it was.
  // (Unless its end was announced already: one `poll.closed` per closing.)
  const endAnnounced = poll.settings.ends_at !== null && poll.end_announced === poll.settings.ends_at;
  const message =
    closed && !poll.closed && !endAnnounced
      ? await pollClosedMessage(next, () => ctx.counters.read(poll._id))
      : undefined;
  await ctx.inTransaction(async ({ outbox, onRollback }) => {
    await ctx.polls.save(next);
    onRollback(() => ctx.polls.save(poll));
    if (message) await outbox.add(Exchanges.polls, message);
  });
  await ctx.live.publish(poll._id);
  return next;
}

/** Command of {@link deletePoll}: which poll and who asks. */
export interface DeletePoll {
  pollId: string;
  actor: Actor;
}

/**
 * Deletes a poll, its votes, pending votes, reactions, comments, invitees, counters and webhook
 * subscriptions (with their delivery log); owner only.
 * @throws ProblemError 404 unknown poll; 403 not the owner.
 */
export async function deletePoll(ctx: PollsContext, { pollId, actor }: DeletePoll): Promise<void> {
  const { poll } = await requireAccess(ctx, { actor, permission: 'poll.manage', pollId });
  await ctx.inTransaction(async () => {
    await ctx.polls.delete(poll._id);
    await ctx.webhooks.repo.removeAll({ poll_id: poll._id });
    await ctx.invitees.deletePoll(poll._id);
  });
  await ctx.counters.drop(poll._id);
  // Open result streams (on every replica) re-read the poll and end with `event: deleted`.
  await ctx.live.publish(poll._id);
}
