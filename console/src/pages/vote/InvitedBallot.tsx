import { useState } from 'react';
import { Alert, Anchor, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call, pollsApi } from '../../api/client.ts';
import type { Poll } from '../poll-public/types.ts';
import type { KindAnswer } from './kinds/KindSection.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { VoteForm as VoteFormType, VoteFormValues } from './VoteForm.tsx';

/** The token of the personal link, from the URL's fragment (`#invite=<token>`), or ''. */
const inviteToken = () => new URLSearchParams(window.location.hash.slice(1)).get('invite') ?? '';

interface Receipt {
  ballot_id: string;
  anonymous: boolean;
  counted_hour: string;
}

/**
 * The voting page of a poll for invitees, or of signed-in users with anonymous ballots
 * (docs/polls.md, "Invited voters", "Anonymous but verified"; a lazy chunk: not in the voting
 * page's initial JavaScript): the ballot, sent to `POST .../ballots` with the personal link's
 * token (read from the URL's fragment, which no server sees) or, signed in, without one, then
 * the receipt (the ballot's id) and a check that it is in the poll's published list. Without a
 * token: says to open the link from the invitation e-mail. `VoteForm` is the voting page's own,
 * given by it: importing it here would split it out of the page's chunk into a shared one (one
 * more file in the page's initial JavaScript, over its budget).
 */
export default function InvitedBallot({ poll, VoteForm }: { poll: Poll; VoteForm: typeof VoteFormType }) {
  const { t } = useTranslation('invited');
  const [token] = useState(inviteToken);
  const [values, setValues] = useState<VoteFormValues>({
    votes: {},
    answers: {},
    voterName: '',
    voterEmail: '',
  });
  const cast = useMutation({
    meta: { signInOn401: false },
    mutationFn: async (sent: VoteFormValues): Promise<Receipt> => {
      const answers = sent.answers as Record<string, KindAnswer>;
      const res = await call(
        pollsApi.POST('/api/polls/{poll_id}/ballots', {
          params: { path: { poll_id: poll.id } },
          body: {
            ...(token ? { token } : {}),
            votes: sent.votes,
            ...(Object.keys(answers).length ? { answers } : {}),
          },
        }),
      );
      return res.data;
    },
  });
  const check = useMutation({
    meta: { signInOn401: false },
    mutationFn: async (ballotId: string) =>
      (
        await call(
          pollsApi.POST('/api/polls/{poll_id}/ballot-ids/check', {
            params: { path: { poll_id: poll.id } },
            body: { ballot_id: ballotId },
          }),
        )
      ).data,
  });

  // A poll of signed-in users with anonymous ballots needs no link: the session says who votes.
  const invited = poll.settings.voters === 'invited';
  if (invited && !token)
    return (
      <Alert color="blue" variant="light" title={t('noLink.title')}>
        {t('noLink.body')}
      </Alert>
    );
  const receipt = cast.data;
  if (receipt)
    return (
      <Stack gap="md">
        <Alert
          color="green"
          variant="light"
          title={t('counted.title')}
          role="status"
          data-testid="ballot-counted"
        >
          <Stack gap="xs">
            <Text size="sm">{receipt.anonymous ? t('counted.anonymous') : t('counted.named')}</Text>
            <Text size="sm">{t('counted.receipt')}</Text>
            <Group gap="xs">
              <Code data-testid="receipt" style={{ wordBreak: 'break-all' }}>
                {receipt.ballot_id}
              </Code>
              <CopyButton value={receipt.ballot_id}>
                {({ copied, copy }) => (
                  <Button size="compact-sm" variant="default" onClick={copy}>
                    {copied ? t('counted.copied') : t('counted.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
        <Stack gap={4}>
          <Button
            variant="default"
            onClick={() => check.mutate(receipt.ballot_id)}
            loading={check.isPending}
            data-testid="check-receipt"
          >
            {t('check.button')}
          </Button>
          {check.data ? (
            <Text size="sm" fw={500} role="status" data-testid="receipt-checked">
              {t('check.found')}
            </Text>
          ) : null}
          {check.error ? <ProblemAlert error={check.error} /> : null}
        </Stack>
        <Anchor component={Link} to={`/p/${encodeURIComponent(poll.id)}/results`} size="sm" ta="center">
          {t('results')}
        </Anchor>
      </Stack>
    );
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t(!invited ? 'intro.signedIn' : poll.settings.anonymous ? 'intro.anonymous' : 'intro.named')}
      </Text>
      <VoteForm
        poll={poll}
        needsEmail={false}
        initial={values}
        pending={cast.isPending}
        error={cast.error}
        onVote={(sent) => {
          setValues(sent);
          cast.mutate(sent);
        }}
      />
    </Stack>
  );
}
