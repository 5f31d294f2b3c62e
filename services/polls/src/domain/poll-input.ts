import { checkEmbedOrigins } from './embed-origins.ts';
import { problems } from './problems.ts';
import type { PollSettings, ResultsVisibility, SectionKind } from './types.ts';
import { resultsVisibility, statsPublicOf } from './visibility.ts';

/** Defaults of a new poll's settings (docs/polls.md, "Settings"). */
export const DEFAULT_SETTINGS: PollSettings = {
  starts_at: null,
  ends_at: null,
  max_votes_per_voter: 1,
  access: 'public',
  require_verification: false,
  show_stats_public: true,
  results_visibility: 'always',
  show_participant_names: false,
  allow_comments: true,
  allow_reactions: true,
  embed_origins: [],
  voters: 'anyone',
  anonymous: false,
};

/** A section of a creation or update body (http/polls-schemas.ts parses it); `id` keeps an existing one. */
export interface SectionInput {
  id?: string;
  title: string;
  options: Array<{ id?: string; label: string; starts_at?: Date; ends_at?: Date }>;
  /** docs/polls.md, "Section kinds" (default `single`; an existing section keeps its kind). */
  kind?: SectionKind;
  min_choices?: number;
  max_choices?: number;
}

/** The creation or update body of a poll, validated (http/polls-schemas.ts: `PollCreate`, `PollUpdate`). */
export interface PollInput {
  title?: string;
  description?: string | null;
  sections?: SectionInput[];
  settings?: Partial<Omit<PollSettings, 'starts_at' | 'ends_at'>> & {
    starts_at?: Date | null;
    ends_at?: Date | null;
  };
}

/**
 * Merges settings input over `base`, checking that `ends_at` is after `starts_at` (422 otherwise).
 * Result visibility (docs/polls.md, "Result visibility"): see {@link resolveVisibility};
 * `show_stats_public` is then `results_visibility === 'always'`. `embed_origins` given is checked
 * and normalised ({@link checkEmbedOrigins}: 422 naming each bad entry).
 */
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
  const visibility = resolveVisibility(base, input?.results_visibility, input?.show_stats_public);
  merged.results_visibility = visibility;
  merged.show_stats_public = statsPublicOf(visibility);
  merged.show_participant_names ??= false;
  merged.voters ??= 'anyone';
  merged.anonymous ??= false;
  if (input?.embed_origins !== undefined) merged.embed_origins = checkEmbedOrigins(input.embed_origins);
  if (merged.anonymous && merged.voters !== 'invited' && merged.access !== 'authenticated')
    throw problems.invalid({
      errors: {
        'settings.anonymous': [
          'The anonymous setting needs voters=invited or access=authenticated: only the ballots of known voters are anonymous but verified.',
        ],
      },
    });
  if (merged.show_participant_names && (merged.anonymous || merged.voters === 'invited'))
    throw problems.invalid({
      errors: {
        'settings.show_participant_names': [
          merged.anonymous
            ? 'An anonymous poll cannot show participants: its ballots name nobody.'
            : "A poll of invitees cannot show participants: each is named by their e-mail address, which only the poll's owner sees.",
        ],
      },
    });
  if (merged.starts_at && merged.ends_at && merged.ends_at <= merged.starts_at)
    throw problems.invalid({
      errors: { 'settings.ends_at': ['The ends_at must be a date after starts_at.'] },
    });
  return merged;
}

/**
 * The `results_visibility` of settings input over `base` (docs/polls.md, "Result visibility"):
 * `results_visibility` given sets it; `show_stats_public` given alone sets `always` (true) or
 * `owner_only` (false, what it always meant); neither keeps the base's. Both given and
 * disagreeing (`show_stats_public` is true exactly for `always`): the one that changes the stored
 * setting wins and the other is taken as echoed back (a client that read the whole settings
 * object, changed the one it knows, and sent it all back, as spec 2.2 clients do with
 * `show_stats_public`); when both change it: 422 naming `settings.show_stats_public`.
 */
function resolveVisibility(
  base: PollSettings,
  visibility: ResultsVisibility | undefined,
  statsPublic: boolean | undefined,
): ResultsVisibility {
  const fromStats = (v: boolean): ResultsVisibility => (v ? 'always' : 'owner_only');
  if (visibility === undefined)
    return statsPublic === undefined ? resultsVisibility(base) : fromStats(statsPublic);
  if (statsPublic === undefined || statsPublicOf(visibility) === statsPublic) return visibility;
  const stored = resultsVisibility(base);
  if (visibility === stored) return fromStats(statsPublic);
  if (statsPublic === statsPublicOf(stored)) return visibility;
  throw problems.invalid({
    errors: {
      'settings.show_stats_public': [
        `The show_stats_public field must be ${statsPublicOf(visibility)} when results_visibility is ${visibility} (true exactly for always).`,
      ],
    },
  });
}
