import { openState } from './vote-rules.ts';
import { resultsVisibility } from './visibility.ts';
import type { CommentDoc, PollDoc, VoteDoc } from './types.ts';

/** The public shape of a poll (docs/polls.md, "Poll object"): ids are strings. */
export function pollView(p: PollDoc) {
  const state = openState(p);
  return {
    id: p._id,
    title: p.title,
    description: p.description,
    owner_id: p.owner_id,
    status: p.closed ? 'closed' : state.open ? 'open' : 'not_open',
    is_open: state.open,
    // Polls stored before issue 37 lack the visibility fields: shown as they are read.
    settings: {
      ...p.settings,
      results_visibility: resultsVisibility(p.settings),
      show_participant_names: p.settings.show_participant_names ?? false,
      embed_origins: p.settings.embed_origins ?? [],
      voters: p.settings.voters ?? 'anyone',
      anonymous: p.settings.anonymous ?? false,
    },
    sections: sectionsView(p),
    closed_at: p.closed_at,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

/**
 * Sections with their options, in order, each with its position (0-based). Sections that are
 * not `single` add `kind` (docs/polls.md, "Section kinds"), `min_choices`/`max_choices`
 * (multiple) and `final_option_id` (meeting), and a meeting's options their `starts_at` and
 * `ends_at`; a poll of single sections is shown exactly as before kinds.
 */
export const sectionsView = (p: PollDoc) =>
  p.sections.map((s, i) => ({
    id: s.id,
    title: s.title,
    position: i,
    ...(s.kind && s.kind !== 'single' ? { kind: s.kind } : {}),
    ...(s.kind === 'multiple' ? { min_choices: s.min_choices, max_choices: s.max_choices } : {}),
    ...(s.kind === 'meeting' ? { final_option_id: s.final_option_id ?? null } : {}),
    options: s.options.map((o, j) => ({
      id: o.id,
      label: o.label,
      position: j,
      ...(o.starts_at ? { starts_at: o.starts_at, ends_at: o.ends_at ?? null } : {}),
    })),
  }));

/** The `vote` object of the vote answer. `status` is `counted` or `pending` (awaiting its password). */
export function voteView(
  v: Pick<VoteDoc, 'poll_id' | 'choices' | 'answers' | 'voter_name' | 'time_spent' | 'created_at'> & {
    id: string;
  },
  status: 'counted' | 'pending',
) {
  return {
    id: v.id,
    poll_id: v.poll_id,
    votes: v.choices,
    ...(v.answers ? { answers: v.answers } : {}),
    voter_name: v.voter_name,
    time_spent: v.time_spent,
    status,
    created_at: v.created_at,
  };
}

/**
 * A comment; `replies` is filled by the threaded list. `hidden` (true only in the owner's list:
 * others never get hidden comments) says the owner hid it.
 */
export function commentView(c: CommentDoc) {
  return {
    id: c._id,
    poll_id: c.poll_id,
    parent_id: c.parent_id,
    content: c.content,
    author_name: c.author_name,
    user_id: c.user_id,
    created_at: c.created_at,
    hidden: c.hidden === true,
  };
}
export type CommentView = ReturnType<typeof commentView> & { replies?: CommentView[] };
