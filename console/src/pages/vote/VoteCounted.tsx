import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { VoteAnswer } from '../poll-public/types.ts';

/**
 * After a counted vote (201): says so, how many votes this voter has left (`remaining_votes`),
 * offers to vote again while some remain, and links to the live results.
 */
export function VoteCounted({
  answer,
  pollId,
  onVoteAgain,
}: {
  answer: VoteAnswer;
  pollId: string;
  onVoteAgain: () => void;
}) {
  const { t } = useTranslation('vote');
  const remaining = answer.remaining_votes;
  return (
    <Stack gap="md">
      <Alert
        color="green"
        variant="light"
        title={t('counted.title')}
        role="status"
        data-testid="vote-counted"
      >
        <Text size="sm">
          {remaining > 0 ? t('counted.remaining', { count: remaining }) : t('counted.noneLeft')}
        </Text>
      </Alert>
      <Button component={Link} to={`/p/${encodeURIComponent(pollId)}/results`} size="md" fullWidth>
        {t('links.results')}
      </Button>
      {remaining > 0 ? (
        <Button variant="default" size="md" onClick={onVoteAgain} fullWidth>
          {t('counted.again')}
        </Button>
      ) : null}
      <Anchor component={Link} to={`/p/${encodeURIComponent(pollId)}/results#comments`} size="sm" ta="center">
        {t('counted.discuss')}
      </Anchor>
    </Stack>
  );
}
