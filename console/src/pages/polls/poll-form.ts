import { fromLocalInput, toLocalInput } from '../../components/local-instant.ts';
import { randomId } from '@mantine/hooks';
import type { TFunction } from 'i18next';
import type { Poll, PollCreate } from './use-polls.ts';

/**
 * The poll editor's values. Sections and options carry a client `key` (React lists) and, when
 * they already exist, their `id`, which the update sends back so they keep their votes
 * (docs/polls.md, "Update"). Dates are `datetime-local` strings in the user's time zone.
 */
export interface PollFormValues {
  title: string;
  description: string;
  sections: Array<{
    key: string;
    id?: string;
    title: string;
    /** docs/polls.md, "Section kinds". */
    kind: SectionKind;
    /** Multiple: the fewest and most options a voter chooses. */
    min_choices: number;
    max_choices: number;
    /** Meeting: each option's `starts_at`/`ends_at` as `datetime-local` strings ('' when unset). */
    options: Array<{ key: string; id?: string; label: string; starts_at: string; ends_at: string }>;
  }>;
  settings: {
    starts_at: string;
    ends_at: string;
    max_votes_per_voter: number;
    access: 'public' | 'authenticated';
    require_verification: boolean;
    /** Who sees the results (docs/polls.md, "Result visibility"); show_stats_public follows it. */
    results_visibility: ResultsVisibility;
    show_participant_names: boolean;
    allow_comments: boolean;
    allow_reactions: boolean;
    /** The origins allowed to frame the embed page, one per line (docs/polls.md, "Embedding"). */
    embed_origins: string;
    /** Who may vote: anyone, or only invitees (docs/polls.md, "Invited voters"). */
    voters: 'anyone' | 'invited';
    /** Anonymous but verified ballots (polls for invitees or signed-in users only). */
    anonymous: boolean;
  };
}

/** Who sees a poll's results (docs/polls.md, "Result visibility"). */
export type ResultsVisibility = 'always' | 'after_vote' | 'after_close' | 'owner_only';
export const RESULTS_VISIBILITIES: readonly ResultsVisibility[] = [
  'always',
  'after_vote',
  'after_close',
  'owner_only',
];

/** The polls service's limits (services/polls/src/http/polls-schemas.ts). */
export const LIMITS = {
  title: 200,
  description: 5000,
  sections: { min: 1, max: 20 },
  options: { min: 2, max: 50 },
  label: 200,
  votes: { min: 1, max: 1000 },
  embedOrigins: 20,
} as const;

/** The lines of the embed origins field that say something. */
const originLines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * Whether `entry` is an origin the service takes in `embed_origins` (services/polls
 * domain/embed-origins.ts): https and a host, an optional port, nothing after; http on localhost.
 */
function isEmbedOrigin(entry: string): boolean {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return false;
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return (
    (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) &&
    !url.username &&
    !url.password &&
    !url.search &&
    !url.hash &&
    url.pathname === '/' &&
    !url.hostname.includes('*')
  );
}

/** How a section is answered (docs/polls.md, "Section kinds"). */
export type SectionKind = 'single' | 'multiple' | 'ranked' | 'meeting';
export const SECTION_KINDS: readonly SectionKind[] = ['single', 'multiple', 'ranked', 'meeting'];

export const newOption = (label = '') => ({ key: randomId(), label, starts_at: '', ends_at: '' });
export const newSection = (): PollFormValues['sections'][number] => ({
  key: randomId(),
  title: '',
  kind: 'single',
  min_choices: 1,
  max_choices: 2,
  options: [newOption(), newOption()],
});

/** A new poll's starting values: one section of two options, the service's default settings. */
export const emptyPoll = (): PollFormValues => ({
  title: '',
  description: '',
  sections: [newSection()],
  settings: {
    starts_at: '',
    ends_at: '',
    max_votes_per_voter: 1,
    access: 'public',
    require_verification: false,
    results_visibility: 'always',
    show_participant_names: false,
    allow_comments: true,
    allow_reactions: true,
    embed_origins: '',
    voters: 'anyone',
    anonymous: false,
  },
});

/** The editor's values of an existing poll. */
export const fromPoll = (poll: Poll): PollFormValues => ({
  title: poll.title,
  description: poll.description ?? '',
  sections: poll.sections.map((s) => ({
    key: s.id,
    id: s.id,
    title: s.title,
    kind: s.kind ?? 'single',
    min_choices: s.min_choices ?? 1,
    max_choices: s.max_choices ?? s.options.length,
    options: s.options.map((o) => ({
      key: o.id,
      id: o.id,
      label: o.label,
      starts_at: toLocalInput(o.starts_at ?? null),
      ends_at: toLocalInput(o.ends_at ?? null),
    })),
  })),
  settings: {
    starts_at: toLocalInput(poll.settings.starts_at),
    ends_at: toLocalInput(poll.settings.ends_at),
    max_votes_per_voter: poll.settings.max_votes_per_voter,
    access: poll.settings.access,
    require_verification: poll.settings.require_verification,
    results_visibility: poll.settings.results_visibility,
    show_participant_names: poll.settings.show_participant_names,
    allow_comments: poll.settings.allow_comments,
    allow_reactions: poll.settings.allow_reactions,
    embed_origins: poll.settings.embed_origins.join('\n'),
    voters: poll.settings.voters,
    anonymous: poll.settings.anonymous,
  },
});

/** The request body of create (and of update: the same fields, with the ids kept). */
export const toBody = (v: PollFormValues): PollCreate => ({
  title: v.title.trim(),
  description: v.description.trim() || null,
  sections: v.sections.map((s) => ({
    ...(s.id ? { id: s.id } : {}),
    title: s.title.trim(),
    kind: s.kind,
    ...(s.kind === 'multiple' ? { min_choices: s.min_choices, max_choices: s.max_choices } : {}),
    options: s.options.map((o) => ({
      ...(o.id ? { id: o.id } : {}),
      label: o.label.trim(),
      ...(s.kind === 'meeting' && o.starts_at ? { starts_at: fromLocalInput(o.starts_at)! } : {}),
      ...(s.kind === 'meeting' && o.ends_at ? { ends_at: fromLocalInput(o.ends_at)! } : {}),
    })),
  })),
  settings: {
    ...v.settings,
    starts_at: fromLocalInput(v.settings.starts_at),
    ends_at: fromLocalInput(v.settings.ends_at),
    embed_origins: originLines(v.settings.embed_origins),
    // Anonymous ballots need known voters: invitees or signed-in users.
    anonymous: anonymousBallots(v.settings),
    show_participant_names: v.settings.show_participant_names && namesCanBeShown(v.settings),
  },
});

type FormSettings = PollFormValues['settings'];

/** Whether the ballots are anonymous: asked for, and the voters are known (invitees or signed-in users). */
const anonymousBallots = (s: FormSettings) =>
  (s.voters === 'invited' || s.access === 'authenticated') && s.anonymous;

/**
 * Whether the poll may show who voted to voters (docs/polls.md, "Participants shown to voters"):
 * not with anonymous ballots, nor for invitees (each named by their e-mail address).
 */
export const namesCanBeShown = (s: FormSettings) => s.voters !== 'invited' && !anonymousBallots(s);

const text =
  (t: TFunction, max: number, required = true) =>
  (value: string) =>
    required && !value.trim()
      ? t('errors.required')
      : value.trim().length > max
        ? t('errors.tooLong', { max })
        : null;

/** The service's rules, checked before sending (Mantine form `validate`). */
export const pollRules = (t: TFunction) => ({
  title: text(t, LIMITS.title),
  description: text(t, LIMITS.description, false),
  sections: {
    title: text(t, LIMITS.label),
    max_choices: (v: number, values: PollFormValues, path: string) => {
      const section = values.sections[Number(path.split('.')[1])];
      if (section?.kind !== 'multiple') return null;
      const n = section.options.length;
      return Number.isInteger(v) &&
        Number.isInteger(section.min_choices) &&
        section.min_choices >= 1 &&
        section.min_choices <= v &&
        v <= n
        ? null
        : t('errors.choices', { max: n });
    },
    options: {
      label: text(t, LIMITS.label),
      starts_at: (v: string, values: PollFormValues, path: string) =>
        values.sections[Number(path.split('.')[1])]?.kind === 'meeting' && !v ? t('errors.slotStart') : null,
      ends_at: (v: string, values: PollFormValues, path: string) => {
        const [, s, , o] = path.split('.');
        const option = values.sections[Number(s)]?.options[Number(o)];
        return v && option?.starts_at && new Date(v) <= new Date(option.starts_at)
          ? t('errors.slotEnd')
          : null;
      },
    },
  },
  settings: {
    max_votes_per_voter: (v: number) =>
      Number.isInteger(v) && v >= LIMITS.votes.min && v <= LIMITS.votes.max
        ? null
        : t('errors.votes', { min: LIMITS.votes.min, max: LIMITS.votes.max }),
    ends_at: (v: string, values: PollFormValues) =>
      v && values.settings.starts_at && new Date(v) <= new Date(values.settings.starts_at)
        ? t('errors.endsBeforeStart')
        : null,
    embed_origins: (v: string) => {
      const lines = originLines(v);
      const wrong = lines.find((l) => !isEmbedOrigin(l));
      if (wrong !== undefined) return t('errors.embedOrigin', { entry: wrong });
      return lines.length > LIMITS.embedOrigins
        ? t('errors.embedOrigins', { max: LIMITS.embedOrigins })
        : null;
    },
  },
});

/**
 * The service's 422 `errors` as the editor's field paths: joi paths by index are the same
 * (`sections.0.options.1.label`); a refused removal names ids (`sections.<section id>.options.<option
 * id>`, an option with counted votes) and goes under that section's title, since the option is
 * gone from the form; a refused embed origin (`settings.embed_origins.<index>`) goes under the
 * origins field. Unknown keys are returned under `_rest` to be shown with the problem.
 */
export function formErrorsOf(
  errors: Record<string, string[]>,
  values: PollFormValues,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, messages] of Object.entries(errors)) {
    const message = messages[0] ?? '';
    const byId = /^sections\.([^.]+)\.options\.([^.]+)$/.exec(key);
    const sectionIndex = byId ? values.sections.findIndex((s) => s.id === byId[1]) : -1;
    if (byId && sectionIndex >= 0) out[`sections.${sectionIndex}.title`] = message;
    else if (key.startsWith('settings.embed_origins')) out['settings.embed_origins'] ??= message;
    else out[key] = message;
  }
  return out;
}
