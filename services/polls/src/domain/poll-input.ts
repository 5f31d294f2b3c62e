import { Joi } from '@fieldhouse/config';
import { validate, validationFailed } from '@fieldhouse/problem';
import type { PollSettings } from './types.ts';

/** Defaults of a new poll's settings (docs/polls.md, "Settings"). */
export const DEFAULT_SETTINGS: PollSettings = {
  starts_at: null,
  ends_at: null,
  max_votes_per_voter: 1,
  access: 'public',
  require_verification: false,
  show_stats_public: true,
  allow_comments: true,
  allow_reactions: true,
};

const option = Joi.object({
  id: Joi.string().max(64),
  label: Joi.string().trim().min(1).max(200).required(),
});
const section = Joi.object({
  id: Joi.string().max(64),
  title: Joi.string().trim().min(1).max(200).required(),
  options: Joi.array().items(option).min(2).max(50).required(),
});
const settings = Joi.object({
  starts_at: Joi.date().iso().allow(null),
  ends_at: Joi.date().iso().allow(null),
  max_votes_per_voter: Joi.number().integer().min(1).max(1000),
  access: Joi.string().valid('public', 'authenticated'),
  require_verification: Joi.boolean(),
  show_stats_public: Joi.boolean(),
  allow_comments: Joi.boolean(),
  allow_reactions: Joi.boolean(),
});

export interface SectionInput {
  id?: string;
  title: string;
  options: Array<{ id?: string; label: string }>;
}

export interface PollInput {
  title?: string;
  description?: string | null;
  sections?: SectionInput[];
  settings?: Partial<Omit<PollSettings, 'starts_at' | 'ends_at'>> & {
    starts_at?: Date | null;
    ends_at?: Date | null;
  };
}

const createSchema = Joi.object<PollInput>({
  title: Joi.string().trim().min(1).max(200).required(),
  description: Joi.string().trim().max(5000).allow('', null),
  sections: Joi.array().items(section).min(1).max(20).required(),
  settings,
});

const updateSchema = Joi.object<PollInput>({
  title: Joi.string().trim().min(1).max(200),
  description: Joi.string().trim().max(5000).allow('', null),
  sections: Joi.array().items(section).min(1).max(20),
  settings,
}).min(1);

/**
 * Validates the body of `POST /api/polls` (design.md: `{title, description?, sections:
 * [{title, options: [{label}]}], settings?}`). Each section needs 2 to 50 options.
 * @throws ProblemError 422 naming each bad field.
 */
export const parseCreatePoll = (body: unknown): PollInput => validate(createSchema, body);

/** Validates the body of `PATCH /api/polls/{id}` (any subset of the creation fields). */
export const parseUpdatePoll = (body: unknown): PollInput => validate(updateSchema, body);

/** Merges settings input over `base`, checking that `ends_at` is after `starts_at` (422 otherwise). */
export function mergeSettings(base: PollSettings, input: PollInput['settings']): PollSettings {
  const iso = (d: Date | null | undefined, old: string | null) =>
    d === undefined ? old : d === null ? null : d.toISOString();
  const merged: PollSettings = {
    ...base,
    ...Object.fromEntries(
      Object.entries(input ?? {}).filter(([k, v]) => v !== undefined && k !== 'starts_at' && k !== 'ends_at'),
    ),
    starts_at: iso(input?.starts_at, base.starts_at),
    ends_at: iso(input?.ends_at, base.ends_at),
  };
  if (merged.starts_at && merged.ends_at && merged.ends_at <= merged.starts_at)
    throw validationFailed({ 'settings.ends_at': ['The ends_at must be a date after starts_at.'] });
  return merged;
}
