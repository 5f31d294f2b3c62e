import { lazy, useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call, pollsApi } from '../../api/client.ts';
import type { components } from '../../api/generated/polls.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import type { Poll } from '../poll-public/types.ts';
import type { KindAnswer } from './kinds/KindSection.tsx';
import { ReceiptCheck } from './ReceiptCheck.tsx';
import type { VoteForm as VoteFormType, VoteFormValues } from './VoteForm.tsx';

// "You have voted" of a used link: the voting page's own lazy chunk (the same import as its).
const AlreadyVoted = lazy(() => import('./AlreadyVoted.tsx'));

/** `POST /api/polls/{poll_id}/invitation`: the state of the personal link (docs/polls.md, "My invitation"). */
type MyInvitation = components['schemas']['MyInvitation'];

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
 * token: says to open the link from the invitation e-mail. With one, before any ballot, it asks
 * the link's state (`POST .../invitation`, the token in the body: no URL holds it): a used link
 * shows "You have voted" (the ballot when the poll is not anonymous, else the hour only) with
 * the receipt check; a withdrawn or unknown one says so; an unused one (or when that read fails)
 * shows the ballot, or `unavailable` (the poll is not open: given by the page). `VoteForm` and
 * `unavailable` are the voting page's own, given by it: importing them here would split them out
 * of the page's chunk into a shared one (one more file in the page's initial JavaScript, over its
 * budget).
 */
export default function InvitedBallot({
  poll,
  VoteForm,
  unavailable = null,
}: {
  poll: Poll;
  VoteForm: typeof VoteFormType;
  unavailable?: ReactNode;
}) {
  const { t } = useTranslation('invited');
  const [token] = useState(inviteToken);
  // A poll of signed-in users with anonymous ballots needs no link: the session says who votes.
  const invited = poll.settings.voters === 'invited';
  const link = useQuery({
    queryKey: ['invitation', poll.id, token],
    enabled: invited && !!token,
    meta: { signInOn401: false },
    retry: false,
    staleTime: Infinity,
    queryFn: async (): Promise<MyInvitation> =>
      (
        await call(
          pollsApi.POST('/api/polls/{poll_id}/invitation', {
            params: { path: { poll_id: poll.id } },
            body: { token },
          }),
        )
      ).data,
  });
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

  if (invited && !token)
    return (
      unavailable ?? (
        <Alert color="blue" variant="light" title={t('noLink.title')}>
          {t('noLink.body')}
        </Alert>
      )
    );
  const receipt = cast.data;
  if (!receipt && invited && link.isPending) return <PageLoader />;
  const state = receipt ? undefined : link.data;
  if (state?.status === 'used')
    return (
      <AlreadyVoted
        poll={poll}
        ballot={{
          voted: true,
          votes: state.votes,
          remaining_votes: 0,
          max_votes_per_voter: 1,
          identified: true,
          anonymous: state.anonymous,
          voted_hour: state.voted_hour,
        }}
        invitation
        onVoteAgain={() => undefined}
      />
    );
  if (state?.status === 'revoked' || state?.status === 'unknown')
    return (
      <Alert
        color="orange"
        variant="light"
        title={t(`${state.status}.title`)}
        role="alert"
        data-testid="invitation-refused"
      >
        {t(`${state.status}.body`)}
      </Alert>
    );
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
        <ReceiptCheck pollId={poll.id} ballotId={receipt.ballot_id} />
        <Anchor component={Link} to={`/p/${encodeURIComponent(poll.id)}/results`} size="sm" ta="center">
          {t('results')}
        </Anchor>
      </Stack>
    );
  if (unavailable) return unavailable;
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
