import { useState } from 'react';
import { Button, Group, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call, pollsApi } from '../../api/client.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { formatDateTime } from '../poll-public/dates.ts';
import type { Poll, Section } from '../poll-public/types.ts';
import { voterFingerprint } from '../poll-public/voter.ts';
import { MeetingGrid } from './MeetingGrid.tsx';

/** Rows per page of the grid. */
const PER_PAGE = 20;

type Participant = Awaited<ReturnType<typeof fetchPage>>['data'][number];

/**
 * `GET /api/polls/{poll_id}/participants?page&per_page`: the owner's grid, or the list shown to
 * voters (with the fingerprint that tells a voter of an `after_vote` poll who has voted).
 */
const fetchPage = async (pollId: string, page: number) =>
  call(
    pollsApi.GET('/api/polls/{poll_id}/participants', {
      params: {
        path: { poll_id: pollId },
        query: { page, per_page: PER_PAGE, voter_fingerprint: voterFingerprint() },
      },
    }),
  );

/** How many rows the list shown to voters holds at most (docs/polls.md, "Participants shown to voters"). */
const SHARED_MAX = 1000;

/** The answer of one section in one vote, as option labels (an order for ranked, slot answers for meetings). */
function choiceText(section: Section, row: Participant, availability: (a: string) => string): string {
  const label = (id: string) => section.options.find((o) => o.id === id)?.label ?? id;
  if (!section.kind) {
    const chosen = row.votes[section.id];
    return chosen ? label(chosen) : '—';
  }
  const answer = row.answers[section.id];
  if (!answer) return '—';
  if (Array.isArray(answer))
    return section.kind === 'ranked'
      ? answer.map((id, i) => `${i + 1}. ${label(id)}`).join(', ')
      : answer.map(label).join(', ');
  return section.options.map((o) => `${o.label}: ${availability(answer[o.id] ?? 'no')}`).join(', ');
}

/**
 * The downloads of `GET /api/polls/{poll_id}/export` (plain links: the session cookie goes with
 * them): votes and results, CSV and Excel; an anonymous poll's results only.
 */
function Exports({ pollId, anonymous }: { pollId: string; anonymous: boolean }) {
  const { t } = useTranslation('results');
  const href = (content: string, format: string) =>
    `/api/polls/${encodeURIComponent(pollId)}/export?content=${content}&format=${format}`;
  return (
    <Stack gap="xs" component="section" aria-labelledby="exports-title">
      <Title order={3} size="h4" id="exports-title">
        {t('participants.export.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('participants.export.hint')}
      </Text>
      {(anonymous ? (['results'] as const) : (['votes', 'results'] as const)).map((content) => (
        <Group key={content} gap="xs">
          <Text size="sm" fw={600} w={90}>
            {t(`participants.export.${content}`)}
          </Text>
          {(['csv', 'xlsx'] as const).map((format) => (
            <Button
              key={format}
              component="a"
              href={href(content, format)}
              download
              variant="default"
              size="compact-md"
              aria-label={t(`participants.export.${content}${format === 'csv' ? 'Csv' : 'Xlsx'}`)}
            >
              {t(`participants.export.${format}`)}
            </Button>
          ))}
        </Group>
      ))}
    </Stack>
  );
}

/**
 * The "Who voted" tab of the results page (issue 37, parts 1 and 3; docs/console.md, "Who
 * voted"). For the owner: every counted vote, newest first, 20 a page (name or "Anonymous", time,
 * the choices of each section), and the exports of the votes and the results as CSV or Excel; on
 * an anonymous poll (docs/polls.md, "Anonymous but verified") each row is a ballot's hour only,
 * and only the results are exported. For others, when the owner shows who voted: the names and
 * choices only (docs/polls.md, "Participants shown to voters"), read again when the count of
 * votes moves (`totalVotes`, from the live results). A lazy chunk: loaded only when the tab is opened.
 */
export default function ParticipantsPanel({
  poll,
  owner,
  totalVotes,
}: {
  poll: Poll;
  owner: boolean;
  totalVotes: number;
}) {
  const { t, i18n } = useTranslation(['results', 'vote']);
  const [page, setPage] = useState(1);
  const rows = useQuery({
    // Others read the list again as the live count moves (it is served from memory); the owner's
    // grid reads the store each time, so it stays as loaded until the page changes.
    queryKey: ['poll-participants', poll.id, page, owner ? 0 : totalVotes],
    queryFn: () => fetchPage(poll.id, page),
    placeholderData: keepPreviousData,
    meta: { signInOn401: false },
  });
  const availability = (a: string) => t(`vote:kinds.availability.${a}`);
  const total = rows.data?.pagination.total ?? 0;
  const anonymous = poll.settings.anonymous;
  const shown = poll.settings.show_participant_names;
  // Meeting sections get their own grid (who can come when); the table lists the other sections.
  const meetings = anonymous ? [] : poll.sections.filter((s) => s.kind === 'meeting');
  const listed = poll.sections.filter((s) => s.kind !== 'meeting');
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2} size="h3">
          {t('participants.title')}
        </Title>
        <Text size="sm" c="dimmed" data-testid="participants-audience">
          {owner
            ? t(shown ? 'participants.ownerShared' : 'participants.ownerOnly')
            : t('participants.shared')}
        </Text>
      </Stack>
      {anonymous ? (
        <Text size="sm" data-testid="participants-anonymous">
          {t('participants.anonymousPoll')}
        </Text>
      ) : null}
      {owner ? <Exports pollId={poll.id} anonymous={anonymous} /> : null}
      {rows.isPending ? <Loader size="sm" role="status" aria-label={t('participants.loading')} /> : null}
      <ProblemAlert error={rows.error} />
      {rows.data && !total ? (
        <Text size="sm" c="dimmed">
          {t('participants.none')}
        </Text>
      ) : null}
      {rows.data && total ? (
        <Stack gap="sm">
          <Text size="sm" data-testid="participants-total">
            {owner ? t('participants.total', { count: total }) : t('participants.listed', { count: total })}
          </Text>
          {!owner && totalVotes > total ? (
            <Text size="sm" c="dimmed" data-testid="participants-not-all">
              {t('participants.notAll', { max: SHARED_MAX.toLocaleString(i18n.resolvedLanguage) })}
            </Text>
          ) : null}
          {/* A poll of meeting sections only: the grids say it all (names, times, answers). */}
          {listed.length || !meetings.length ? (
            <Table.ScrollContainer minWidth={300}>
              <Table verticalSpacing="xs" captionSide="top" data-testid="participants">
                <Table.Caption>{t('participants.caption')}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('participants.name')}</Table.Th>
                    <Table.Th scope="col" visibleFrom="sm">
                      {t('participants.time')}
                    </Table.Th>
                    {anonymous || !listed.length ? null : (
                      <Table.Th scope="col">{t('participants.choices')}</Table.Th>
                    )}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.data.data.map((row, i) => (
                    <Table.Tr key={row.vote_id ?? `${page}-${i}`} data-testid="participant">
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        <Text size="sm" fw={600}>
                          {row.voter_name ||
                            t(row.choices_hidden ? 'participants.ballot' : 'participants.anonymous')}
                        </Text>
                        <Text size="xs" c="dimmed" hiddenFrom="sm">
                          {formatDateTime(row.created_at, i18n.resolvedLanguage)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {[
                            row.user_id !== null ? t('participants.signedIn', { id: row.user_id }) : null,
                            row.seq > 1 ? t('participants.vote', { n: row.seq }) : null,
                            row.verified ? t('participants.verified') : null,
                          ]
                            .filter(Boolean)
                            .join(' · ')}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">
                        <Text size="sm">{formatDateTime(row.created_at, i18n.resolvedLanguage)}</Text>
                      </Table.Td>
                      {row.choices_hidden || !listed.length ? null : (
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>
                          {listed.map((section) => (
                            <Text size="sm" key={section.id}>
                              <Text span size="sm" c="dimmed">
                                {`${section.title}: `}
                              </Text>
                              {choiceText(section, row, availability)}
                            </Text>
                          ))}
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : null}
          {meetings.map((section) => (
            <MeetingGrid
              key={section.id}
              section={section}
              rows={rows.data.data}
              anonymousLabel={t('participants.anonymous')}
            />
          ))}
          {rows.data.pagination.last_page > 1 ? (
            <Pagination
              total={rows.data.pagination.last_page}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({ 'aria-label': t(`participants.${control}`) })}
              withEdges={false}
              aria-label={t('participants.pages')}
            />
          ) : null}
        </Stack>
      ) : null}
    </Stack>
  );
}
