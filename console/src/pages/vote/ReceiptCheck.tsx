// The voting page loads only the Mantine styles it uses (app/public-styles.ts): the receipt
// field's come with this chunk.
import '@mantine/core/styles/Input.css';
import { useState } from 'react';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call, pollsApi } from '../../api/client.ts';
import { ApiError } from '../../api/problem.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';

/**
 * The check of a receipt (a ballot's id) against the poll's published list of counted ballots
 * (`POST /api/polls/{poll_id}/ballot-ids/check`, the id in the body: docs/polls.md, "Anonymous
 * but verified"). With `ballotId` (just voted): one button. Without (a voter who comes back: the
 * console keeps no receipt): a field to paste it, prefilled with `initial`. A receipt not in the
 * list is said next to the button in plain words; other refusals as every refusal. Used by the
 * lazy chunks of the voting page (InvitedBallot, AlreadyVoted) only.
 */
export function ReceiptCheck({
  pollId,
  ballotId,
  initial = '',
}: {
  pollId: string;
  ballotId?: string;
  initial?: string;
}) {
  const { t } = useTranslation('invited');
  const [typed, setTyped] = useState(initial);
  const [empty, setEmpty] = useState(false);
  const check = useMutation({
    meta: { signInOn401: false },
    mutationFn: async (id: string) =>
      (
        await call(
          pollsApi.POST('/api/polls/{poll_id}/ballot-ids/check', {
            params: { path: { poll_id: pollId } },
            body: { ballot_id: id },
          }),
        )
      ).data,
  });
  const missing = check.error instanceof ApiError && check.error.status === 404;
  const submit = () => {
    const id = (ballotId ?? typed).trim();
    setEmpty(!id);
    if (id) check.mutate(id);
  };
  return (
    <Stack gap={4}>
      {ballotId === undefined ? (
        <TextInput
          label={t('check.label')}
          description={t('check.hint')}
          value={typed}
          onChange={(e) => {
            setTyped(e.currentTarget.value);
            check.reset();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') submit();
          }}
          error={empty ? t('check.empty') : undefined}
          autoComplete="off"
          spellCheck={false}
          data-testid="receipt-input"
        />
      ) : null}
      <Button variant="default" onClick={submit} loading={check.isPending} data-testid="check-receipt">
        {t('check.button')}
      </Button>
      {check.data ? (
        <Text size="sm" fw={500} role="status" data-testid="receipt-checked">
          {t('check.found')}
        </Text>
      ) : null}
      {missing ? (
        <Text size="sm" fw={500} c="red.9" role="alert" data-testid="receipt-missing">
          {t('check.missing')}
        </Text>
      ) : check.error ? (
        <ProblemAlert error={check.error} />
      ) : null}
    </Stack>
  );
}
