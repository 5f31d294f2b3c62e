import '../../app/full-styles.ts';
import { lazy, Suspense, useEffect } from 'react';
import { Alert, Button, Divider, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/problem.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { PollLoadError } from '../poll-public/PollLoadError.tsx';
import { Achievements } from './Achievements.tsx';
import { AnalyticsPanel } from './AnalyticsPanel.tsx';
import { CommentsSection } from './CommentsSection.tsx';
import { LiveStatus } from './LiveStatus.tsx';
import { OwnVote } from './OwnVote.tsx';
import { Reactions } from './Reactions.tsx';
import { SectionResults } from './SectionResults.tsx';
import { KindResults } from './KindResults.tsx';
import { useMe } from '../../auth/session.ts';
import { Totals } from './Totals.tsx';
import { useLiveResults } from './use-live-results.ts';
import { useResults } from './use-results.ts';

/** The "Who voted" tab: a lazy chunk, loaded only when it is opened. */
const ParticipantsPanel = lazy(() => import('./ParticipantsPanel.tsx'));

/**
 * `/p/:pollId/results`: the live results anyone may read. The first results come from
 * `GET .../results`, then every `results` event of the stream replaces them without a reload.
 * Bars per option (or only the reader's own vote when the owner hides statistics), totals,
 * analytics and achievements for those who may see them, reactions and the comment threads.
 * The poll's owner also gets a "Who voted" tab (`?tab=participants`): the participants grid and
 * the exports (docs/console.md, "Who voted"); so does everyone who sees the results of a poll
 * whose owner shows who voted (names and choices only: docs/polls.md, "Participants shown to
 * voters").
 */
export function ResultsPage() {
  const { pollId = '' } = useParams();
  const { t } = useTranslation('results');
  const results = useResults(pollId);
  const me = useMe();
  const unknown = results.error instanceof ApiError && results.error.status === 404;
  const live = useLiveResults(pollId, !unknown);
  const loaded = !!results.data;
  const { hash } = useLocation();
  const [search, setSearch] = useSearchParams();
  useEffect(() => {
    // "Comment and react" from the voting page: React Router does not scroll to the fragment.
    if (loaded && hash === '#comments') document.getElementById('comments')?.scrollIntoView();
  }, [loaded, hash]);

  if (live === 'deleted')
    return (
      <Alert color="red" variant="light" title={t('deleted.title')} role="alert">
        {t('deleted.body')}
      </Alert>
    );
  if (results.isPending) return <PageLoader />;
  if (results.error)
    return <PollLoadError error={results.error} ns="results" onRetry={() => void results.refetch()} />;
  const r = results.data;
  const poll = r.poll;
  const owner = !!me.data && me.data.id === poll.owner_id;
  // The service shows who voted to those who see the results when the owner chose so.
  const whoVoted = owner || (poll.settings.show_participant_names && !r.stats_hidden);
  const tab = whoVoted && search.get('tab') === 'participants' ? 'participants' : 'results';
  const body = (
    <>
      <Totals results={r} />
      {r.stats_hidden ? (
        <OwnVote results={r} />
      ) : (
        <Stack gap="xl" component="section" aria-labelledby="bars-title">
          <Title order={2} size="h3" id="bars-title">
            {t('bars.title')}
          </Title>
          {r.total_votes === 0 ? (
            <Text size="sm" c="dimmed">
              {t('bars.none')}
            </Text>
          ) : null}
          {r.sections.map((section) => {
            const kind = r.section_results?.find((k) => k.section_id === section.id);
            return kind && kind.kind !== 'multiple' ? (
              <KindResults key={section.id} pollId={pollId} section={section} result={kind} owner={owner} />
            ) : (
              <SectionResults key={section.id} section={section} counts={r.results} of={kind?.ballots} />
            );
          })}
        </Stack>
      )}
      <AnalyticsPanel results={r} />
      <Achievements results={r} />
      <Divider />
      <Reactions results={r} pollId={pollId} />
      <CommentsSection
        pollId={pollId}
        allowed={poll.settings.allow_comments}
        total={r.comments_total}
        latest={r.recent_comments[0]?.id}
        owner={owner}
      />
    </>
  );
  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {poll.title}
          </Title>
          <LiveStatus state={live} />
        </Group>
        <Text size="sm" c="dimmed">
          {t(`status.${poll.status}`)}
        </Text>
        {poll.is_open ? (
          <Group>
            <Button component={Link} to={`/p/${encodeURIComponent(pollId)}`} variant="light">
              {t('vote')}
            </Button>
          </Group>
        ) : null}
      </Stack>
      {whoVoted ? (
        <Tabs
          value={tab}
          onChange={(next) =>
            setSearch(next === 'participants' ? { tab: 'participants' } : {}, { replace: true })
          }
          keepMounted={false}
        >
          <Tabs.List aria-label={t('tabs.label')}>
            <Tabs.Tab value="results">{t('tabs.results')}</Tabs.Tab>
            <Tabs.Tab value="participants">{t('tabs.participants')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="results" pt="lg">
            <Stack gap="xl">{body}</Stack>
          </Tabs.Panel>
          <Tabs.Panel value="participants" pt="lg">
            <Suspense fallback={<PageLoader />}>
              <ParticipantsPanel poll={poll} owner={owner} totalVotes={r.total_votes} />
            </Suspense>
          </Tabs.Panel>
        </Tabs>
      ) : (
        body
      )}
    </Stack>
  );
}
