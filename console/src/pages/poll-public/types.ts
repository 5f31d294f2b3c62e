import type { components } from '../../api/generated/polls.ts';

type Schemas = components['schemas'];

/** A poll as `GET /api/polls/{poll_id}` shows it (docs/polls.md, "Polls"). */
export type Poll = Schemas['Poll'];
/** A section with its options. */
export type Section = Schemas['Section'];
/** The results object of `GET /api/polls/{poll_id}/results` and of each live `results` event. */
export type Results = Schemas['Results'];
/** The `data` of a vote or verify answer (spec 2.2, "vote response"). */
export type VoteAnswer = Schemas['VoteAnswer'];
/** `GET /api/polls/{poll_id}/my-ballot`: the caller's own counted votes (docs/polls.md, "My ballot"). */
export type MyBallot = Schemas['MyBallot'];
/** A comment with its whole thread in `replies` (oldest first). */
export type CommentThread = Schemas['CommentThread'];
/** The eight reaction types (docs/polls.md, "Reactions"). */
export type ReactionType = keyof Schemas['ReactionsSummary'];
