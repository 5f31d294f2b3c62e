import { useState, type FormEvent } from 'react';
import { Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import type { Poll } from '../poll-public/types.ts';
import {
  answersToSend,
  BallotSections,
  ballotErrors,
  focusFirstError,
  type Ballot,
} from './BallotSections.tsx';
import { TextField } from '../../components/native/TextField.tsx';
import { VoteProblem } from './VoteProblem.tsx';

/** What the form sends: section id to option id, the other kinds' answers, the optional name and e-mail. */
export interface VoteFormValues extends Ballot {
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
    const found = ballotErrors(poll.sections, values);
    if (needsEmail && !EMAIL.test(values.voterEmail.trim())) found.voter_email = t('form.emailInvalid');
    if (values.voterName.trim().length > 100) found.voter_name = t('form.nameTooLong');
    setErrors(found);
    if (Object.keys(found).length) return focusFirstError(found);
    onVote({ ...values, answers: answersToSend(poll.sections, values.answers) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('form.label')}>
      <Stack gap="lg">
        <BallotSections
          sections={poll.sections}
          ballot={values}
          errorOf={errorOf}
          onPick={(id, option) => setValues((v) => ({ ...v, votes: { ...v.votes, [id]: option } }))}
          onAnswer={(id, answer) => {
            setValues((v) => ({ ...v, answers: { ...v.answers, [id]: answer } }));
            setErrors(({ [`answers.${id}`]: _, ...rest }) => rest);
          }}
        />
        <TextField
          field="voter_name"
          label={t('form.name')}
          description={t(poll.settings.show_participant_names ? 'form.nameHintShown' : 'form.nameHint')}
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
