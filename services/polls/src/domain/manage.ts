import { forbidden, notFound, validationFailed } from '@fieldhouse/problem';
import type { PollsContext } from './context.ts';
import { newId, shortId } from './ids.ts';
import { DEFAULT_SETTINGS, mergeSettings, type PollInput, type SectionInput } from './poll-input.ts';
import type { PollDoc, SectionDoc } from './types.ts';

/** The poll, or 404. */
export async function findPoll(ctx: PollsContext, id: string): Promise<PollDoc> {
  const poll = await ctx.polls.get(id);
  if (!poll) throw notFound('No poll has this id.');
  return poll;
}

/** The poll when the caller owns it: 404 when missing, 403 when someone else's. */
export async function ownedPoll(ctx: PollsContext, id: string, userId: number): Promise<PollDoc> {
  const poll = await findPoll(ctx, id);
  if (poll.owner_id !== userId) throw forbidden('Only the owner of this poll can manage it.');
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
    return {
      id: old?.id ?? shortId('s'),
      title: s.title,
      options: s.options.map((o, j) => {
        const oldOption = o.id !== undefined ? old?.options.find((e) => e.id === o.id) : undefined;
        if (o.id !== undefined && !oldOption)
          errors[`sections.${i}.options.${j}.id`] = [`Option ${o.id} is not part of this section.`];
        return { id: oldOption?.id ?? shortId('o'), label: o.label };
      }),
    };
  });
  if (Object.keys(errors).length) throw validationFailed(errors);
  return sections;
}

/** Creates a poll owned by `ownerId` (design.md's creation body; settings default per docs). */
export async function createPoll(ctx: PollsContext, ownerId: number, input: PollInput): Promise<PollDoc> {
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
  await ctx.polls.insert(poll);
  // Counters from the start, so the first vote's counter step is atomic like every other
  // (it records the first_vote milestone: domain/results.ts, recordReachedMilestone).
  await ctx.counters.rebuild(poll._id);
  return poll;
}

/**
 * Updates title, description, sections (the full new list: give `id` to keep a section or an
 * option) and settings. An option or section that has counted votes cannot be removed (422
 * naming it). Votes already counted keep their counts.
 */
export async function updatePoll(ctx: PollsContext, poll: PollDoc, input: PollInput): Promise<PollDoc> {
  const next: PollDoc = { ...poll, updated_at: new Date().toISOString() };
  if (input.title !== undefined) next.title = input.title;
  if (input.description !== undefined) next.description = input.description || null;
  if (input.settings) next.settings = mergeSettings(poll.settings, input.settings);
  if (input.sections) {
    next.sections = buildSections(input.sections, poll.sections);
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
      throw validationFailed(errors);
    }
  }
  await ctx.polls.save(next);
  return next;
}

/** Closes (no more votes) or reopens a poll. */
export async function setClosed(ctx: PollsContext, poll: PollDoc, closed: boolean): Promise<PollDoc> {
  const now = new Date().toISOString();
  const next: PollDoc = { ...poll, closed, closed_at: closed ? now : null, updated_at: now };
  await ctx.polls.save(next);
  await ctx.live.publish(poll._id);
  return next;
}

/** Deletes a poll, its votes, pending votes, reactions, comments and counters. */
export async function deletePoll(ctx: PollsContext, poll: PollDoc): Promise<void> {
  await ctx.polls.delete(poll._id);
  await ctx.counters.drop(poll._id);
  // Open result streams (on every replica) re-read the poll and end with `event: deleted`.
  await ctx.live.publish(poll._id);
}
