// The public frame's styles come with the entry (app/public-styles.ts); these are the embed's own
// (the ballot's native controls bring theirs: SectionChoice.module.css, the kinds' chunk).
import '@mantine/core/styles/Progress.css';
import { Suspense, useState, type FormEvent } from 'react';
import { Anchor, Badge, Box, Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { problemMessage } from '../../api/problem-message.ts';
import type { components } from '../../api/generated/polls.ts';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useMyBallot } from '../poll-public/my-ballot-query.ts';
import { usePublicPoll } from '../poll-public/poll-query.ts';
import type { Poll, Results, Section } from '../poll-public/types.ts';
import { useLiveResults } from '../results/use-live-results.ts';
import { useResults } from '../results/use-results.ts';
import {
  answersToSend,
  BallotSections,
  ballotErrors,
  focusFirstError,
  type Ballot,
} from '../vote/BallotSections.tsx';
import { useVote } from '../vote/use-vote.ts';
import { formatSlot } from '../poll-public/dates.ts';

type SectionResult = components['schemas']['SectionResult'];

/**
 * Whether the embed offers voting in place (docs/polls.md, "Embedding"): the poll is open and
 * anyone may vote without signing in, an invitation or an e-mail confirmation (a framed page has
 * no session of its own, and the confirmation leaves the frame); every section kind is voted in
 * place. Otherwise it links to the voting page.
 */
const votesInPlace = (poll: Poll) =>
  poll.is_open &&
  poll.settings.access === 'public' &&
  poll.settings.voters !== 'invited' &&
  !poll.settings.require_verification;

/** One option's count as a bar, with its share of `total` (the section's votes, or its ballots). */
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

/**
 * A meeting section: per slot its yes and if need be answers (a bar of both as shares of the
 * ballots), the owner's final slot when picked, else the best slot or the tie.
 */
function MeetingSlots({ section, result }: { section: Section; result: SectionResult }) {
  const { t, i18n } = useTranslation(['embed', 'problems']);
  const labelOf = (id: string) => section.options.find((o) => o.id === id)?.label ?? id;
  const when = (start: string | null, end: string | null) => formatSlot(start, end, i18n.language);
  const final = result.final_option_id ?? null;
  const best = result.best ?? [];
  const ballots = result.ballots;
  const share = (n: number) => (ballots ? (n / ballots) * 100 : 0);
  return (
    <>
      {final ? (
        <Text size="sm" fw={700} data-testid="embed-final">
          {t('meeting.final', { label: labelOf(final) })}
        </Text>
      ) : best.length ? (
        <Text size="sm" fw={700} data-testid="embed-best">
          {best.length > 1
            ? t('tie', { labels: best.map(labelOf).join(', ') })
            : t('meeting.best', { label: labelOf(best[0]!) })}
        </Text>
      ) : null}
      {(result.slots ?? []).map((slot) => (
        <Box key={slot.option_id} data-testid="embed-slot">
          <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
            <Box style={{ minWidth: 0 }}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {labelOf(slot.option_id)}
                {slot.option_id === final ? (
                  <Badge component="span" color="green" variant="light" size="sm" ml={6}>
                    {t('meeting.chosen')}
                  </Badge>
                ) : null}
              </Text>
              <Text size="xs" c="dimmed">
                {when(slot.starts_at, slot.ends_at)}
              </Text>
            </Box>
            <Text size="sm" fw={600} ta="right" data-testid="embed-slot-counts">
              {t('meeting.counts', { yes: slot.yes, maybe: slot.if_need_be })}
            </Text>
          </Group>
          <Progress.Root size="sm" aria-hidden>
            <Progress.Section value={share(slot.yes)} color="green" />
            <Progress.Section value={share(slot.if_need_be)} color="yellow" />
          </Progress.Root>
        </Box>
      ))}
    </>
  );
}

/**
 * The poll's counts per section: bars for a single section (shares of its votes) and a multiple
 * one (shares of the ballots, a voter choosing several), first preferences and the
 * instant-runoff winner for a ranked one, the slots' answers for a meeting one.
 */
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
        const kind = results.section_results?.find((r) => r.section_id === section.id);
        const counts = kind?.counts ?? kind?.first_preferences ?? results.results;
        const total =
          kind?.kind === 'multiple'
            ? kind.ballots
            : section.options.reduce((n, o) => n + (counts[o.id] ?? 0), 0);
        const irv = kind?.instant_runoff;
        return (
          <Stack key={section.id} gap={6} component="section" aria-labelledby={`embed-s-${section.id}`}>
            <Title order={3} size="h5" id={`embed-s-${section.id}`} style={{ overflowWrap: 'anywhere' }}>
              {section.title}
            </Title>
            {kind?.kind === 'meeting' ? (
              <MeetingSlots section={section} result={kind} />
            ) : (
              <>
                {kind ? (
                  <Text size="xs" c="dimmed">
                    {t(kind.kind === 'ranked' ? 'firstPreferences' : 'ofBallots')}
                  </Text>
                ) : null}
                {section.options.map((o) => (
                  <OptionBar key={o.id} label={o.label} count={counts[o.id] ?? 0} total={total} />
                ))}
              </>
            )}
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

/**
 * Voting in the frame with the voting page's own ballot ({@link BallotSections}: a radio group
 * per single section, the kinds' widgets from their lazy chunk), checked as the voting page
 * checks it; a problem says itself next to the Vote button (and under its section), in the
 * user's language.
 */
function EmbedVote({ poll, onVoted }: { poll: Poll; onVoted: () => void }) {
  const { t } = useTranslation(['embed', 'vote', 'problems']);
  const vote = useVote(poll.id);
  const [ballot, setBallot] = useState<Ballot>({ votes: {}, answers: {} });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [started] = useState(() => Date.now());
  const server = fieldErrorsOf(vote.error);
  const errorOf = (field: string) => errors[field] ?? server[field];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = ballotErrors(poll.sections, ballot);
    setErrors(found);
    if (Object.keys(found).length) return focusFirstError(found);
    vote.mutate(
      {
        votes: ballot.votes,
        answers: answersToSend(poll.sections, ballot.answers),
        voterName: '',
        timeSpent: (Date.now() - started) / 1000,
      },
      { onSuccess: onVoted },
    );
  };
  const problem = vote.isError
    ? problemMessage(vote.error)
    : Object.keys(errors).length
      ? t('checkAnswers')
      : null;
  return (
    <Box component="form" onSubmit={submit} noValidate aria-label={t('ballot')}>
      <Stack gap="md">
        <BallotSections
          sections={poll.sections}
          ballot={ballot}
          errorOf={errorOf}
          onPick={(id, option) => {
            setBallot((b) => ({ ...b, votes: { ...b.votes, [id]: option } }));
            setErrors(({ [`votes.${id}`]: _, ...rest }) => rest);
          }}
          onAnswer={(id, answer) => {
            setBallot((b) => ({ ...b, answers: { ...b.answers, [id]: answer } }));
            setErrors(({ [`answers.${id}`]: _, ...rest }) => rest);
          }}
        />
        <Group gap="sm" align="center" wrap="wrap">
          <Button type="submit" size="sm" loading={vote.isPending} data-testid="embed-vote">
            {t('vote')}
          </Button>
          {problem ? (
            <Text
              size="sm"
              c="var(--mantine-color-error)"
              role="alert"
              data-testid="embed-vote-problem"
              style={{ flex: '1 1 12rem' }}
            >
              {problem}
            </Text>
          ) : null}
        </Group>
      </Stack>
    </Box>
  );
}

/** The page once the poll is known. */
function EmbedBody({ poll }: { poll: Poll }) {
  // The ballot's strings (the voting page's) load with the embed's, not after them.
  const { t } = useTranslation(votesInPlace(poll) ? ['embed', 'problems', 'vote'] : ['embed', 'problems']);
  const results = useResults(poll.id);
  const live = useLiveResults(poll.id);
  const [voted, setVoted] = useState(false);
  // A reader back with no votes left (this browser already voted here or on the voting page):
  // "you have voted", not a ballot the service would refuse.
  const mine = useMyBallot(poll.id, votesInPlace(poll));
  const spent = !!mine.data?.voted && mine.data.remaining_votes === 0;
  const inPlace = votesInPlace(poll) && !voted && !spent && !mine.isPending;
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
      {voted ? (
        <Text size="sm" fw={600} role="status">
          {t('thanks')}
        </Text>
      ) : spent ? (
        <Text size="sm" fw={600} role="status" data-testid="embed-already-voted">
          {t('alreadyVoted')}
        </Text>
      ) : null}
      {inPlace && poll.settings.show_participant_names ? (
        <Text size="sm" c="dimmed" data-testid="embed-names-shown">
          {t('namesShown')}
        </Text>
      ) : null}
      {inPlace ? <EmbedVote poll={poll} onVoted={() => setVoted(true)} /> : null}
      {/* The results under their own heading: below a ballot, its sections' titles come again. */}
      <Group gap="xs" align="baseline" wrap="wrap">
        <Title order={2} size="h4">
          {t('results')}
        </Title>
        {results.data ? (
          <Text size="sm" c="dimmed" data-testid="embed-total">
            {t('total', { count: results.data.total_votes })}
          </Text>
        ) : null}
      </Group>
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
        {poll.is_open && !votesInPlace(poll) ? (
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
