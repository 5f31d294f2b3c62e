import { lazy, Suspense } from 'react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Section } from '../poll-public/types.ts';
import { SectionChoice } from './SectionChoice.tsx';
import type { KindAnswer } from './kinds/KindSection.tsx';

/** A ballot's choices: section id to option id (single sections), the other kinds' answers. */
export interface Ballot {
  votes: Record<string, string>;
  /** Sections that are not single (docs/polls.md, "Section kinds"). */
  answers: Record<string, KindAnswer>;
}

/** The lazy chunk's check of those sections, once it has loaded (the service checks them too). */
let checkKinds: ((sections: Section[], answers: Ballot['answers']) => Record<string, string>) | undefined;

/**
 * Sections that are not single: a lazy chunk, fetched only for polls that have one (the voting
 * page's and the embed's initial JavaScript stay without it).
 */
const KindSection = lazy(() =>
  import('./kinds/KindSection.tsx').then((m) => {
    checkKinds = m.kindChecker();
    return m;
  }),
);

/**
 * What the service would refuse in a ballot, as form errors keyed as its `errors` are
 * (`votes.<section id>`, `answers.<section id>`): a single section without its option, and,
 * once the kinds' chunk has loaded, the number of choices of a multiple section and an empty
 * ranking. Messages in the user's language (the `vote` namespace, loaded by whoever shows the
 * ballot). The service stays the authority.
 */
export function ballotErrors(sections: Section[], ballot: Ballot): Record<string, string> {
  const t = i18next.getFixedT(null, 'vote');
  const found: Record<string, string> = {};
  for (const s of sections) if (!s.kind && !ballot.votes[s.id]) found[`votes.${s.id}`] = t('form.pickOne');
  return Object.assign(found, checkKinds?.(sections, ballot.answers));
}

/**
 * The answers to send: those given, and an empty object for a meeting section left untouched
 * (every slot then counts as no, as the grid shows; the service wants the section answered).
 */
export function answersToSend(sections: Section[], answers: Ballot['answers']): Ballot['answers'] {
  const out = { ...answers };
  for (const s of sections) if (s.kind === 'meeting' && !out[s.id]) out[s.id] = {};
  return out;
}

/** Moves the focus to the control of the first field named in `errors` (its `data-field`). */
export function focusFirstError(errors: Record<string, string>) {
  const first = Object.keys(errors)[0];
  if (first) document.querySelector<HTMLElement>(`[data-field="${first}"] :is(input, button)`)?.focus();
}

interface Props {
  sections: Section[];
  ballot: Ballot;
  /** The message to show under a field (`votes.<id>`, `answers.<id>`), if any. */
  errorOf: (field: string) => string | undefined;
  /** A single section's option was picked. */
  onPick: (sectionId: string, optionId: string) => void;
  /** Another kind's answer changed. */
  onAnswer: (sectionId: string, answer: KindAnswer) => void;
}

/**
 * A ballot's sections, as the voting page and the embed show them: a native radio group per
 * single section ({@link SectionChoice}), the kinds' widgets (`multiple` checkboxes, the
 * `ranked` list, the `meeting` grid) from their lazy chunk for the others, each with its
 * error under it.
 */
export function BallotSections({ sections, ballot, errorOf, onPick, onAnswer }: Props) {
  const { t } = useTranslation('vote');
  return sections.map((section) =>
    section.kind ? (
      <Suspense key={section.id} fallback={<p>{t('kinds.loading')}</p>}>
        <KindSection
          section={section}
          value={ballot.answers[section.id]}
          error={errorOf(`answers.${section.id}`) ?? errorOf(`votes.${section.id}`)}
          onChange={(answer) => onAnswer(section.id, answer)}
        />
      </Suspense>
    ) : (
      <SectionChoice
        key={section.id}
        section={section}
        value={ballot.votes[section.id]}
        error={errorOf(`votes.${section.id}`)}
        onChange={(option) => onPick(section.id, option)}
      />
    ),
  );
}
