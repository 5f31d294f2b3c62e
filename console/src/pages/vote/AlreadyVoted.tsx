import { Alert, Anchor, Button, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../poll-public/dates.ts';
import type { MyBallot, Poll, Section } from '../poll-public/types.ts';
import { ReceiptCheck } from './ReceiptCheck.tsx';

type BallotVote = MyBallot['votes'][number];

/** A section's answer in a vote, as text (option labels): one, a list, an order, or slot answers. */
function answerText(section: Section, vote: BallotVote, t: (key: string) => string): string {
  const label = (id: string) => section.options.find((o) => o.id === id)?.label ?? id;
  if (!section.kind) {
    const chosen = vote.votes[section.id];
    return chosen ? label(chosen) : '—';
  }
  const answer = vote.answers?.[section.id];
  if (!answer) return '—';
  if (Array.isArray(answer))
    return section.kind === 'ranked'
      ? answer.map((id, i) => `${i + 1}. ${label(id)}`).join(', ')
      : answer.map(label).join(', ');
  return section.options
    .map((o) => `${o.label}: ${t(`kinds.availability.${answer[o.id] ?? 'no'}`)}`)
    .join(', ');
}

/**
 * What a voter who already voted on this poll sees on arriving at `/p/{poll_id}` (issue 37,
 * part 3), from `GET /api/polls/{poll_id}/my-ballot` or, for a personal invitation link
 * (`invitation`), from `POST /api/polls/{poll_id}/invitation`: "You have voted", their ballot(s)
 * with the chosen labels, the votes left (with "Vote again" while some remain), and links to the
 * results and the discussion. An anonymous ballot is linked to no one (docs/polls.md, "Anonymous
 * but verified"): then only the hour it was counted in, and the field to check a receipt against
 * the published list (also for an invitation's ballot: its receipt is its id). A lazy chunk of
 * the voting page: only voters who voted load it.
 */
export default function AlreadyVoted({
  ballot,
  poll,
  onVoteAgain,
  invitation = false,
}: {
  ballot: MyBallot;
  poll: Poll;
  onVoteAgain: () => void;
  /** The ballot of a personal invitation link (one ballot per invitation). */
  invitation?: boolean;
}) {
  const { t, i18n } = useTranslation('vote');
  const remaining = ballot.remaining_votes;
  const results = `/p/${encodeURIComponent(poll.id)}/results`;
  const hour = ballot.voted_hour ? formatDateTime(ballot.voted_hour, i18n.resolvedLanguage) : '';
  const summary = ballot.anonymous
    ? t(hour ? 'voted.anonymous' : 'voted.anonymousNoHour', { hour })
    : remaining > 0
      ? t('counted.remaining', { count: remaining })
      : t(invitation ? 'voted.invitation' : 'voted.noneLeft');
  return (
    <Stack gap="md" data-testid="already-voted">
      <Alert color="green" variant="light" title={t('voted.title')} role="status">
        <Text size="sm">{summary}</Text>
      </Alert>
      {ballot.votes.map((vote, i) => (
        <Stack gap={6} key={vote.id} component="section" aria-labelledby={`ballot-${vote.id}`}>
          <Title order={2} size="h4" id={`ballot-${vote.id}`}>
            {ballot.votes.length > 1 ? t('voted.ballotN', { n: i + 1 }) : t('voted.ballot')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('voted.at', { time: formatDateTime(vote.created_at, i18n.resolvedLanguage) })}
            {vote.voter_name ? ` · ${t('voted.as', { name: vote.voter_name })}` : ''}
          </Text>
          <List spacing={4} size="sm">
            {poll.sections.map((section) => (
              <List.Item key={section.id} style={{ overflowWrap: 'anywhere' }}>
                <Text span fw={600} size="sm">
                  {section.title}
                </Text>
                {`: ${answerText(section, vote, t)}`}
              </List.Item>
            ))}
          </List>
        </Stack>
      ))}
      {ballot.anonymous || invitation ? (
        <ReceiptCheck pollId={poll.id} initial={ballot.votes[0]?.id} />
      ) : null}
      <Button component={Link} to={results} size="md" fullWidth>
        {t('links.results')}
      </Button>
      {remaining > 0 && poll.is_open ? (
        <Button variant="default" size="md" onClick={onVoteAgain} fullWidth>
          {t('counted.again')}
        </Button>
      ) : null}
      <Anchor component={Link} to={`${results}#comments`} size="sm" ta="center">
        {t('counted.discuss')}
      </Anchor>
    </Stack>
  );
}
