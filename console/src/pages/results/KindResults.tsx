import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call, pollsApi } from '../../api/client.ts';
import { problemMessage } from '../../api/problem-message.ts';
import type { components } from '../../api/generated/polls.ts';
import type { Section } from '../poll-public/types.ts';
import { resultsKey } from './use-results.ts';
import { formatSlot } from '../poll-public/dates.ts';

type SectionResult = components['schemas']['SectionResult'];

interface Props {
  pollId: string;
  section: Section;
  result: SectionResult;
  /** The reader owns the poll: may pick a meeting's final slot. */
  owner: boolean;
}

/**
 * The results of a ranked or meeting section (docs/polls.md, "Section results"): for ranked,
 * the winner (or the tie), every instant-runoff round with its eliminations and broken ties, and
 * the Borda count; for meeting, the slots ranked by yes then if need be (equal slots share a
 * rank: a tie is shown as a tie), the final slot, its calendar file and, for the owner, a button
 * per slot to pick it.
 */
export function KindResults(props: Props) {
  const { section } = props;
  return (
    <Stack gap="sm" component="section" aria-labelledby={`section-${section.id}`}>
      <Title order={3} size="h4" id={`section-${section.id}`} style={{ overflowWrap: 'anywhere' }}>
        {section.title}
      </Title>
      {props.result.kind === 'ranked' ? <RankedResults {...props} /> : <MeetingResults {...props} />}
    </Stack>
  );
}

function RankedResults({ section, result }: Props) {
  const { t } = useTranslation('results');
  const label = (id: string) => section.options.find((o) => o.id === id)?.label ?? id;
  const irv = result.instant_runoff!;
  const rounds = irv.rounds;
  const list = (ids: string[]) => ids.map(label).join(', ');
  return (
    <Stack gap="sm">
      {rounds.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('bars.none')}
        </Text>
      ) : irv.winner ? (
        <Text fw={700} data-testid="irv-winner">
          {t('ranked.winner', { label: label(irv.winner), count: rounds.length })}
        </Text>
      ) : (
        <Text fw={700} data-testid="irv-winner">
          {t('ranked.tie', { labels: list(irv.tied_winners) })}
        </Text>
      )}
      {rounds.length ? (
        <Table.ScrollContainer minWidth={320}>
          <Table striped withTableBorder>
            <Table.Caption>{t('ranked.roundsCaption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('ranked.option')}</Table.Th>
                {rounds.map((r) => (
                  <Table.Th scope="col" key={r.round}>
                    {t('ranked.round', { n: r.round })}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {section.options.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Th scope="row" fw={o.id === irv.winner ? 700 : 400}>
                    {o.label}
                  </Table.Th>
                  {rounds.map((r) => (
                    <Table.Td key={r.round}>
                      {r.counts[o.id] === undefined ? (
                        <span aria-label={t('ranked.out')}>—</span>
                      ) : (
                        <>
                          {r.counts[o.id]}
                          {r.eliminated.includes(o.id) ? ` (${t('ranked.eliminated')})` : ''}
                          {r.elected === o.id ? ` (${t('ranked.elected')})` : ''}
                        </>
                      )}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Th scope="row">{t('ranked.exhausted')}</Table.Th>
                {rounds.map((r) => (
                  <Table.Td key={r.round}>{r.exhausted}</Table.Td>
                ))}
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {rounds
        .filter((r) => r.tie)
        .map((r) => (
          <Text size="sm" key={r.round} data-testid="irv-tie">
            {t('ranked.tieBroken', {
              n: r.round,
              labels: list(r.tie!.between),
              eliminated: label(r.tie!.eliminated),
              rule: t(`ranked.rules.${r.tie!.rule}`),
            })}
          </Text>
        ))}
      <Title order={4} size="h5">
        {t('ranked.borda')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('ranked.bordaHint', { n: section.options.length - 1 })}
      </Text>
      <Table withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('ranked.rank')}</Table.Th>
            <Table.Th scope="col">{t('ranked.option')}</Table.Th>
            <Table.Th scope="col">{t('ranked.points')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(result.borda ?? []).map((b, i, all) => {
            const shared = all.filter((x) => x.rank === b.rank).length > 1;
            return (
              <Table.Tr key={b.option_id}>
                <Table.Td>{shared ? t('ranked.tiedRank', { rank: b.rank }) : b.rank}</Table.Td>
                <Table.Th scope="row" fw={400}>
                  {label(b.option_id)}
                </Table.Th>
                <Table.Td>{b.score}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function MeetingResults({ pollId, section, result, owner }: Props) {
  const { t, i18n } = useTranslation('results');
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const pick = useMutation({
    mutationFn: async (optionId: string | null) =>
      call(
        pollsApi.POST('/api/polls/{poll_id}/sections/{section_id}/final-slot', {
          params: { path: { poll_id: pollId, section_id: section.id } },
          body: { option_id: optionId },
        }),
      ),
    onMutate: () => setError(null),
    onError: setError,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resultsKey(pollId) }),
  });
  const label = (id: string) => section.options.find((o) => o.id === id)?.label ?? id;
  const when = (start: string | null, end: string | null) => formatSlot(start, end, i18n.language);
  const best = result.best ?? [];
  const final = result.final_option_id ?? null;
  const icsHref = `/api/polls/${encodeURIComponent(pollId)}/sections/${encodeURIComponent(section.id)}/calendar.ics`;
  return (
    <Stack gap="sm">
      {best.length > 1 ? (
        <Text fw={700} data-testid="meeting-best">
          {t('meeting.tie', { labels: best.map(label).join(', ') })}
        </Text>
      ) : best.length === 1 ? (
        <Text fw={700} data-testid="meeting-best">
          {t('meeting.best', { label: label(best[0]!) })}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          {t('bars.none')}
        </Text>
      )}
      {final ? (
        <Alert color="green" variant="light" title={t('meeting.final', { label: label(final) })}>
          <Anchor href={icsHref} download data-testid="ics-link">
            {t('meeting.download')}
          </Anchor>
        </Alert>
      ) : null}
      <Table.ScrollContainer minWidth={320}>
        <Table striped withTableBorder>
          <Table.Caption>{t('meeting.caption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('ranked.rank')}</Table.Th>
              <Table.Th scope="col">{t('meeting.slot')}</Table.Th>
              <Table.Th scope="col">{t('meeting.yes')}</Table.Th>
              <Table.Th scope="col">{t('meeting.ifNeedBe')}</Table.Th>
              <Table.Th scope="col">{t('meeting.no')}</Table.Th>
              {owner ? <Table.Th scope="col">{t('meeting.finalColumn')}</Table.Th> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(result.slots ?? []).map((s, _, all) => {
              const shared = all.filter((x) => x.rank === s.rank).length > 1;
              return (
                <Table.Tr key={s.option_id}>
                  <Table.Td>{shared ? t('ranked.tiedRank', { rank: s.rank }) : s.rank}</Table.Td>
                  <Table.Th scope="row" fw={400}>
                    {label(s.option_id)}
                    <Text size="xs" c="dimmed">
                      {when(s.starts_at, s.ends_at)}
                    </Text>
                    {s.option_id === final ? (
                      <Badge color="green" variant="light" mt={4}>
                        {t('meeting.finalBadge')}
                      </Badge>
                    ) : null}
                  </Table.Th>
                  <Table.Td>{s.yes}</Table.Td>
                  <Table.Td>{s.if_need_be}</Table.Td>
                  <Table.Td>{s.no}</Table.Td>
                  {owner ? (
                    <Table.Td>
                      {s.option_id === final ? (
                        <Button
                          size="xs"
                          variant="subtle"
                          loading={pick.isPending}
                          onClick={() => pick.mutate(null)}
                        >
                          {t('meeting.unpick', { label: label(s.option_id) })}
                        </Button>
                      ) : (
                        <Button
                          size="xs"
                          variant="light"
                          loading={pick.isPending}
                          onClick={() => pick.mutate(s.option_id)}
                        >
                          {t('meeting.pick', { label: label(s.option_id) })}
                        </Button>
                      )}
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {error ? (
        <Group>
          <Text c="red" size="sm" role="alert">
            {problemMessage(error)}
          </Text>
        </Group>
      ) : null}
    </Stack>
  );
}
