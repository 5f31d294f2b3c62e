import { Joi } from '@fieldhouse/config';
import { pageQuerySchema } from '@fieldhouse/http';
import type { PollInput } from '../domain/poll-input.ts';
import { RESULTS_VISIBILITIES } from '../domain/visibility.ts';
import { envelope, isoTime, listEnvelope } from './shared-schemas.ts';

/** Poll management schemas (docs/polls.md, "Polls", "Settings", "Poll object"). */

const optionInput = Joi.object({
  id: Joi.string().max(64).description('Keeps an existing option (updates only).'),
  label: Joi.string().trim().min(1).max(200).required(),
  starts_at: Joi.date().iso().description('Meeting sections (required there): the time slot’s start.'),
  ends_at: Joi.date()
    .iso()
    .description('Meeting sections: the slot’s end, after starts_at (default: one hour).'),
});

const sectionInput = Joi.object({
  id: Joi.string().max(64).description('Keeps an existing section (updates only).'),
  title: Joi.string().trim().min(1).max(200).required(),
  options: Joi.array().items(optionInput).min(2).max(50).required(),
  kind: Joi.string()
    .valid('single', 'multiple', 'ranked', 'meeting')
    .description(
      'docs/polls.md, "Section kinds": single (default; one option, in `votes`), multiple (min_choices to ' +
        'max_choices options), ranked (options in order of preference), meeting (time slots answered yes, ' +
        'if_need_be or no). An existing section keeps its kind when this is left out.',
    ),
  min_choices: Joi.number()
    .integer()
    .min(1)
    .max(50)
    .description('Multiple: the fewest options a voter chooses (default 1).'),
  max_choices: Joi.number()
    .integer()
    .min(1)
    .max(50)
    .description('Multiple: the most options a voter chooses (default: all).'),
});

/** Settings in a creation or update body: each one optional (defaults: docs/polls.md, "Settings"). */
const SettingsInput = Joi.object({
  starts_at: Joi.date().iso().allow(null).description('Votes are taken from this time (null: at once).'),
  ends_at: Joi.date().iso().allow(null).description('Votes are taken until this time (after starts_at).'),
  max_votes_per_voter: Joi.number().integer().min(1).max(1000).description('Default 1.'),
  access: Joi.string()
    .valid('public', 'authenticated')
    .description('Who may vote, react and comment (default public).'),
  require_verification: Joi.boolean().description(
    'Votes are confirmed by a one-time password (default false).',
  ),
  show_stats_public: Joi.boolean().description(
    'Everyone sees full results (default true). Spec 2.2; kept equal to results_visibility = always: ' +
      'alone, true sets results_visibility to always and false to owner_only; given with a results_visibility ' +
      'it disagrees with, 422.',
  ),
  results_visibility: Joi.string()
    .valid(...RESULTS_VISIBILITIES)
    .description(
      'docs/polls.md, "Result visibility": who sees the counts, analytics and achievements. always (everyone), ' +
        'after_vote (the owner, and voters once their vote is counted; everyone once the poll is over), ' +
        'after_close (the owner; everyone once the poll is closed or ended), owner_only. Default: from ' +
        'show_stats_public, else always.',
    ),
  show_participant_names: Joi.boolean().description(
    'Who voted (names and choices) is listed to everyone who may see the results (`GET .../participants`); ' +
      'default false. Refused on anonymous polls and polls of invitees.',
  ),
  allow_comments: Joi.boolean().description('Default true.'),
  allow_reactions: Joi.boolean().description('Default true.'),
  embed_origins: Joi.array()
    .items(Joi.string().max(300))
    .max(20)
    .description(
      'docs/polls.md, "Embedding": the origins allowed to frame the poll\'s embed page /p/{poll_id}/embed ' +
        '(Content-Security-Policy frame-ancestors), each https://host[:port] (http:// on localhost), at most 20; ' +
        'the whole list (empty: no other site may frame it, the default). A bad entry is 422 naming ' +
        'settings.embed_origins.<index>.',
    ),
  voters: Joi.string()
    .valid('anyone', 'invited')
    .description(
      'docs/polls.md, "Invited voters": anyone (as access allows; the default) or only the invitees, ' +
        'each voting once with the personal link e-mailed to them (POST /api/polls/{poll_id}/ballots).',
    ),
  anonymous: Joi.boolean().description(
    'docs/polls.md, "Anonymous but verified": with voters=invited, ballots keep no link to their voter ' +
      '(default false).',
  ),
}).id('SettingsInput');

/**
 * `POST /api/polls` (design.md: `{title, description?, sections: [{title, options: [{label}]}],
 * settings?}`): 1 to 20 sections of 2 to 50 options each.
 */
export const PollCreate = Joi.object<PollInput>({
  title: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().trim().max(5000).allow('', null),
  sections: Joi.array().items(sectionInput).min(1).max(20).required(),
  settings: SettingsInput,
}).id('PollCreate');

/**
 * `PATCH /api/polls/{poll_id}`: any non-empty subset of the creation fields; `sections` is the
 * full new list (give `id` to keep a section or an option).
 */
export const PollUpdate = Joi.object<PollInput>({
  title: Joi.string().trim().min(1).max(200),
  description: Joi.string().trim().max(5000).allow('', null),
  sections: Joi.array().items(sectionInput).min(1).max(20),
  settings: SettingsInput,
})
  .min(1)
  .id('PollUpdate');

/** `?page&per_page` of the lists (spec 8: per_page 1 to 100, default 15). */
export const PageQuery = Joi.object<{ page: number; per_page: number }>(pageQuerySchema);

/** A poll's settings as stored and shown (every one present). */
const Settings = Joi.object({
  starts_at: isoTime().allow(null).required(),
  ends_at: isoTime().allow(null).required(),
  max_votes_per_voter: Joi.number().integer().min(1).required(),
  access: Joi.string().valid('public', 'authenticated').required(),
  require_verification: Joi.boolean().required(),
  show_stats_public: Joi.boolean().required(),
  results_visibility: Joi.string()
    .valid(...RESULTS_VISIBILITIES)
    .required(),
  show_participant_names: Joi.boolean().required(),
  allow_comments: Joi.boolean().required(),
  allow_reactions: Joi.boolean().required(),
  embed_origins: Joi.array()
    .items(Joi.string())
    .required()
    .description('Origins allowed to frame /p/{poll_id}/embed, normalised (docs/polls.md, "Embedding").'),
  voters: Joi.string().valid('anyone', 'invited').required(),
  anonymous: Joi.boolean().required(),
}).id('Settings');

/**
 * A section with its options, in order, each with its 0-based position. Sections that are not
 * `single` add `kind` and its fields (docs/polls.md, "Section kinds").
 */
export const Section = Joi.object({
  id: Joi.string().required(),
  title: Joi.string().required(),
  position: Joi.number().integer().required(),
  kind: Joi.string()
    .valid('multiple', 'ranked', 'meeting')
    .description('Present when the section is not single (one option).'),
  min_choices: Joi.number().integer().description('Multiple: the fewest options a voter chooses.'),
  max_choices: Joi.number().integer().description('Multiple: the most options a voter chooses.'),
  final_option_id: Joi.string()
    .allow(null)
    .description('Meeting: the slot the owner picked (null: not yet).'),
  options: Joi.array()
    .items(
      Joi.object({
        id: Joi.string().required(),
        label: Joi.string().required(),
        position: Joi.number().integer().required(),
        starts_at: isoTime().description('Meeting: the slot’s start.'),
        ends_at: isoTime()
          .allow(null)
          .description('Meeting: the slot’s end (null: one hour after its start).'),
      }),
    )
    .required(),
}).id('Section');

/** `POST /api/polls/{poll_id}/sections/{section_id}/final-slot`: the slot the owner picks, or null. */
export const FinalSlotInput = Joi.object<{ option_id: string | null }>({
  option_id: Joi.string()
    .max(64)
    .allow(null)
    .required()
    .description('An option of the meeting section, or null to undo.'),
});

/** The path parameters of a section's routes. */
export const sectionParams = Joi.object<{ poll_id: string; section_id: string }>({
  poll_id: Joi.string().required().description('The poll id (a string).'),
  section_id: Joi.string().max(64).required().description('The section id (`s_...`).'),
});

/** The public shape of a poll (docs/polls.md, "Poll object"): ids are strings. */
export const Poll = Joi.object({
  id: Joi.string().required(),
  title: Joi.string().required(),
  description: Joi.string().allow(null).required(),
  owner_id: Joi.number().integer().required(),
  status: Joi.string().valid('open', 'closed', 'not_open').required(),
  is_open: Joi.boolean().required(),
  settings: Settings.required(),
  sections: Joi.array().items(Section).required(),
  closed_at: isoTime().allow(null).required(),
  created_at: isoTime().required(),
  updated_at: isoTime().required(),
}).id('Poll');

/** `{data: Poll, message}`. */
export const PollAnswer = envelope(Poll);

/** `{data: Poll[], pagination, message}`. */
export const PollList = listEnvelope(Poll);
