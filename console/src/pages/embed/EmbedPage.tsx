// The public frame's styles come with the entry (app/public-styles.ts); these are the embed's own.
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/Progress.css';
import { Suspense, useState } from 'react';
import { Anchor, Badge, Box, Button, Group, Progress, Radio, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { problemMessage } from '../../api/problem-message.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { usePublicPoll } from '../poll-public/poll-query.ts';
import type { Poll, Results } from '../poll-public/types.ts';
import { useLiveResults } from '../results/use-live-results.ts';
import { useResults } from '../results/use-results.ts';
import { useVote } from '../vote/use-vote.ts';

/**
 * Whether the embed offers voting in place (docs/polls.md, "Embedding"): the poll is open, anyone
 * may vote without signing in or confirming by e-mail (a framed page has no session of its own),
 * and every section is a single choice; otherwise it links to the voting page.
 */
const votesInPlace = (poll: Poll) =>
  poll.is_open &&
  poll.settings.access === 'public' &&
  !poll.settings.require_verification &&
  poll.sections.every((s) => !s.kind);

/** One option's count as a bar, with its share of the section's votes. */
function OptionBar({ label, count, total }: { label: string; count: number; total: number }) {
  const { t } = useTranslation(['embed', 'problems']);
  const share = total ? Math.round((count / total) * 100) : 0;
  return (
    <Box>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {label}
        </Text>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="embed-count">
          {t('count', { count, share })}
        </Text>
      </Group>
      <Progress value={share} size="sm" aria-hidden />
    </Box>
  );
}

/** The poll's counts per section (first preferences and the instant-runoff winner for ranked sections). */
function ResultsList({ poll, results }: { poll: Poll; results: Results }) {
  const { t } = useTranslation(['embed', 'problems']);
  if (results.stats_hidden)
    return (
      <Text size="sm" data-testid="embed-hidden">
        {t('hidden')}
      </Text>
    );
  const labelOf = (id: string) =>
    poll.sections.flatMap((s) => s.options).find((o) => o.id === id)?.label ?? id;
  return (
    <Stack gap="md">
      {poll.sections.map((section) => {
        const total = section.options.reduce((n, o) => n + (results.results[o.id] ?? 0), 0);
        const ranked = results.section_results?.find(
          (r) => r.section_id === section.id && r.kind === 'ranked',
        );
        const irv = ranked?.instant_runoff;
        return (
          <Stack key={section.id} gap={6} component="section" aria-labelledby={`embed-s-${section.id}`}>
            <Title order={2} size="h5" id={`embed-s-${section.id}`}>
              {section.title}
            </Title>
            {ranked ? (
              <Text size="xs" c="dimmed">
                {t('firstPreferences')}
              </Text>
            ) : null}
            {section.options.map((o) => (
              <OptionBar key={o.id} label={o.label} count={results.results[o.id] ?? 0} total={total} />
            ))}
            {irv?.winner ? (
              <Text size="sm" fw={700} data-testid="embed-winner">
                {t('winner', { label: labelOf(irv.winner) })}
              </Text>
            ) : irv && irv.tied_winners.length > 1 ? (
              <Text size="sm" fw={700} data-testid="embed-winner">
                {t('tie', { labels: irv.tied_winners.map(labelOf).join(', ') })}
              </Text>
            ) : null}
          </Stack>
        );
      })}
    </Stack>
  );
}

/** Voting in the frame: one choice per section, then the results (errors next to the button). */
function EmbedVote({ poll, onVoted }: { poll: Poll; onVoted: () => void }) {
  const { t } = useTranslation(['embed', 'problems']);
  const vote = useVote(poll.id);
  const [choices, setChoices] = useState<Record<string, string>>({});
  const [started] = useState(() => Date.now());
  const complete = poll.sections.every((s) => choices[s.id]);
  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!complete) return;
        vote.mutate(
          { votes: choices, voterName: '', timeSpent: (Date.now() - started) / 1000 },
          { onSuccess: onVoted },
        );
      }}
    >
      <Stack gap="sm">
        {poll.sections.map((section) => (
          <Radio.Group
            key={section.id}
            label={section.title}
            value={choices[section.id] ?? null}
            onChange={(v) => setChoices((c) => ({ ...c, [section.id]: v }))}
          >
            <Stack gap={6} mt={6}>
              {section.options.map((o) => (
                <Radio key={o.id} value={o.id} label={o.label} />
              ))}
            </Stack>
          </Radio.Group>
        ))}
        <Group gap="sm" align="center">
          <Button
            type="submit"
            size="sm"
            disabled={!complete}
            loading={vote.isPending}
            data-testid="embed-vote"
          >
            {t('vote')}
          </Button>
          {vote.isError ? (
            <Text size="sm" c="var(--mantine-color-error)" role="alert">
              {problemMessage(vote.error)}
            </Text>
          ) : null}
        </Group>
      </Stack>
    </Box>
  );
}

/** The page once the poll is known. */
function EmbedBody({ poll }: { poll: Poll }) {
  const { t } = useTranslation(['embed', 'problems']);
  const results = useResults(poll.id);
  const live = useLiveResults(poll.id);
  const [voted, setVoted] = useState(false);
  const inPlace = votesInPlace(poll) && !voted;
  const link = `${window.location.origin}/p/${encodeURIComponent(poll.id)}`;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Title order={1} size="h3" style={{ overflowWrap: 'anywhere' }}>
          {poll.title}
        </Title>
        <Badge
          variant="light"
          color={live === 'live' ? 'green' : 'gray'}
          role="status"
          data-testid="embed-live"
          data-state={live}
        >
          {t(`live.${live}`)}
        </Badge>
      </Group>
      {results.data ? (
        <Text size="sm" c="dimmed" data-testid="embed-total">
          {t('total', { count: results.data.total_votes })}
        </Text>
      ) : null}
      {voted ? (
        <Text size="sm" fw={600} role="status">
          {t('thanks')}
        </Text>
      ) : null}
      {inPlace ? <EmbedVote poll={poll} onVoted={() => setVoted(true)} /> : null}
      {results.data ? (
        <ResultsList poll={poll} results={results.data} />
      ) : results.isError ? (
        <Text size="sm" role="alert">
          {problemMessage(results.error)}
        </Text>
      ) : (
        <PageLoader />
      )}
      <Group gap="md" wrap="wrap">
        {poll.is_open && !inPlace && !voted ? (
          <Anchor href={link} target="_blank" rel="noopener" size="sm">
            {t('voteThere')}
          </Anchor>
        ) : null}
        <Anchor href={`${link}/results`} target="_blank" rel="noopener" size="sm">
          {t('open')}
        </Anchor>
      </Group>
    </Stack>
  );
}

/** Loads the poll: its page, or what went wrong. */
function EmbedPoll({ pollId }: { pollId: string }) {
  const poll = usePublicPoll(pollId);
  if (poll.data) return <EmbedBody poll={poll.data} />;
  if (poll.isError)
    return (
      <Text size="sm" role="alert">
        {problemMessage(poll.error)}
      </Text>
    );
  return <PageLoader />;
}

/**
 * `/p/{poll_id}/embed` (docs/polls.md, "Embedding"): a poll's live results, and voting where the
 * poll allows it in place, for an `<iframe>` on another site (the gateway lets the poll's
 * `embed_origins` frame this page only). No console frame: one column that fits any width, its
 * own lazy chunk (the voting page's budget is untouched), links opening Fieldhouse in a new tab.
 */
export function EmbedPage() {
  const { pollId = '' } = useParams();
  return (
    <Box component="main" p="sm" maw={640} mx="auto">
      <Suspense fallback={<PageLoader />}>
        <EmbedPoll pollId={pollId} />
      </Suspense>
    </Box>
  );
}
