import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import type { Poll } from '../poll-public/types.ts';
import { SectionChoice } from './SectionChoice.tsx';
import { TextField } from '../../components/native/TextField.tsx';
import { VoteProblem } from './VoteProblem.tsx';
import type { KindAnswer } from './kinds/KindSection.tsx';

/** The lazy chunk's check of those sections, once it has loaded (the service checks them too). */
let checkKinds:
  ((sections: Poll['sections'], answers: VoteFormValues['answers']) => Record<string, string>) | undefined;

/** Sections that are not single: a lazy chunk, fetched only for polls that have one. */
const KindSection = lazy(() =>
  import('./kinds/KindSection.tsx').then((m) => {
    checkKinds = m.kindChecker();
    return m;
  }),
);

/** What the form sends: section id to option id, the other kinds' answers, the optional name and e-mail. */
export interface VoteFormValues {
  votes: Record<string, string>;
  /** Sections that are not single (docs/polls.md, "Section kinds"). */
  answers: Record<string, KindAnswer>;
  voterName: string;
  voterEmail: string;
}

/** A loose e-mail check (the service's is the authority): something@something.something. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Props {
  poll: Poll;
  /** Ask for `voter_email`: anonymous voter on a poll requiring verification. */
  needsEmail: boolean;
  initial: VoteFormValues;
  pending: boolean;
  error: unknown;
  onVote: (values: VoteFormValues) => void;
}

/**
 * The ballot: one radio group per section (one choice each; arrow keys move within a group,
 * Enter in a field or Space on the button sends), the voter's optional name and, when needed,
 * their e-mail for the one-time password. Checks what the service checks (one option per
 * section, a valid e-mail) and shows the service's `errors.votes.<section id>` under the group
 * concerned; other refusals appear above the button.
 */
export function VoteForm({ poll, needsEmail, initial, pending, error, onVote }: Props) {
  const { t } = useTranslation('vote');
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const server = fieldErrorsOf(error);
  const errorOf = (field: string) => errors[field] ?? server[field];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    for (const s of poll.sections)
      if (!s.kind && !values.votes[s.id]) found[`votes.${s.id}`] = t('form.pickOne');
    Object.assign(found, checkKinds?.(poll.sections, values.answers));
    if (needsEmail && !EMAIL.test(values.voterEmail.trim())) found.voter_email = t('form.emailInvalid');
    if (values.voterName.trim().length > 100) found.voter_name = t('form.nameTooLong');
    setErrors(found);
    if (Object.keys(found).length) {
      const first = Object.keys(found)[0]!;
      document.querySelector<HTMLElement>(`[data-field="${first}"] :is(input, button)`)?.focus();
      return;
    }
    onVote(values);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('form.label')}>
      <Stack gap="lg">
        {poll.sections.map((section) =>
          section.kind ? (
            <Suspense key={section.id} fallback={<p>{t('kinds.loading')}</p>}>
              <KindSection
                section={section}
                value={values.answers[section.id]}
                error={errorOf(`answers.${section.id}`) ?? errorOf(`votes.${section.id}`)}
                onChange={(answer) => {
                  setValues((v) => ({ ...v, answers: { ...v.answers, [section.id]: answer } }));
                  setErrors(({ [`answers.${section.id}`]: _, ...rest }) => rest);
                }}
              />
            </Suspense>
          ) : (
            <SectionChoice
              key={section.id}
              section={section}
              value={values.votes[section.id]}
              error={errorOf(`votes.${section.id}`)}
              onChange={(option) => setValues((v) => ({ ...v, votes: { ...v.votes, [section.id]: option } }))}
            />
          ),
        )}
        <TextField
          field="voter_name"
          label={t('form.name')}
          description={t('form.nameHint')}
          autoComplete="name"
          maxLength={100}
          value={values.voterName}
          onChange={(voterName) => setValues((v) => ({ ...v, voterName }))}
          error={errorOf('voter_name')}
        />
        {needsEmail ? (
          <TextField
            field="voter_email"
            type="email"
            label={t('form.email')}
            description={t('form.emailHint')}
            autoComplete="email"
            inputMode="email"
            required
            value={values.voterEmail}
            onChange={(voterEmail) => setValues((v) => ({ ...v, voterEmail }))}
            error={errorOf('voter_email')}
          />
        ) : null}
        <VoteProblem error={error} />
        <Button type="submit" size="md" loading={pending} fullWidth>
          {t('form.submit')}
        </Button>
      </Stack>
    </form>
  );
}
