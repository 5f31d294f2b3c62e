import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  Menu,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDots, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useFormatInstant } from '../../components/format.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { PagePicker } from '../../components/PagePicker.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { problemMessage } from '../../api/problem-message.ts';
import { EventHeader } from '../events/EventHeader.tsx';
import { CsvImport } from './CsvImport.tsx';
import { InviteModal } from './InviteModal.tsx';
import {
  INVITE_TYPES,
  qrUrl,
  useInvites,
  useResendInvitation,
  useIsOwner,
  useSetPresence,
  useUpdateInvite,
  type Invite,
  type InviteFilter,
  type InviteType,
} from './use-invites.ts';

/**
 * An invitee's presence as a badge: revoked, present (with the check-in time as its title; a party
 * part of which arrived says how many: "Present: 3 of 5") or absent.
 */
function PresenceBadge(props: { invite: Invite }) {
  const { t } = useTranslation('invites');
  const when = useFormatInstant();
  const { invite } = props;
  if (invite.revoked)
    return (
      <Badge color="gray" variant="light">
        {t('row.revoked')}
      </Badge>
    );
  if (invite.presence)
    return (
      <Badge color="green" variant="light" title={when(invite.checked_in_at)}>
        {invite.seats > 1 && invite.arrived < invite.seats
          ? t('row.presentParty', { arrived: invite.arrived, seats: invite.seats })
          : t('row.present')}
      </Badge>
    );
  return (
    <Badge color="yellow" variant="light">
      {t('row.absent')}
    </Badge>
  );
}

/** The table's filters and page from the URL (so a filtered view can be shared as a link). */
function useFilter(): [InviteFilter, (patch: Partial<InviteFilter>) => void] {
  const [params, setParams] = useSearchParams();
  const filter: InviteFilter = {
    search: params.get('search') ?? '',
    type_invite: (params.get('type') ?? '') as InviteType | '',
    presence: (params.get('presence') ?? '') as InviteFilter['presence'],
    page: Math.max(1, Number(params.get('page') ?? 1) || 1),
  };
  const set = (patch: Partial<InviteFilter>) => {
    const next = { ...filter, page: 1, ...patch };
    const out = new URLSearchParams();
    if (next.search) out.set('search', next.search);
    if (next.type_invite) out.set('type', next.type_invite);
    if (next.presence) out.set('presence', next.presence);
    if (next.page > 1) out.set('page', String(next.page));
    setParams(out, { replace: true });
  };
  return [filter, set];
}

/**
 * `/events/{event_id}/invites`: the event's invitees, searchable by name, e-mail or code, filtered
 * by type and presence, 20 a page (all kept in the URL); add one, edit, revoke or restore, send
 * the invitation again, download the QR code (PNG, SVG); import a CSV with a preview; check an
 * invitee in or undo it (owner and staff: staff see only that and the QR codes). The outcome of a
 * row's action shows above the table, naming the invitee.
 */
export function InvitesPage() {
  const { t } = useTranslation('invites');
  // Mantine's `sm` (48 em): the presence has a column of its own; below, it goes under the name
  // (rendered once, in one place, so it is read once).
  const wide = useMediaQuery('(min-width: 48em)', true) ?? true;
  const eventId = useParams().eventId ?? '';
  const [filter, setFilter] = useFilter();
  const [search, setSearch] = useState(filter.search);
  const invites = useInvites(eventId, filter);
  const [editing, setEditing] = useState<Invite | null | 'new'>(null);
  const [importing, setImporting] = useState(false);
  const update = useUpdateInvite(eventId);
  const resend = useResendInvitation(eventId);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const owner = useIsOwner(eventId);
  const presence = useSetPresence(eventId);
  const setPresent = (invite: Invite, present: boolean) =>
    presence.mutate(
      { inviteId: invite.id, presence: present },
      {
        onSuccess: () =>
          setOutcome({
            ok: true,
            text: t(present ? 'row.checkedInDone' : 'row.undoneDone', { nom: invite.nom }),
          }),
        onError: (err) => setOutcome({ ok: false, text: `${invite.nom}: ${problemMessage(err)}` }),
      },
    );

  const revoke = (invite: Invite) =>
    update.mutate(
      { inviteId: invite.id, patch: { revoked: !invite.revoked } },
      {
        onSuccess: () =>
          setOutcome({
            ok: true,
            text: t(invite.revoked ? 'row.restored' : 'row.revokedDone', { nom: invite.nom }),
          }),
        onError: (err) => setOutcome({ ok: false, text: `${invite.nom}: ${problemMessage(err)}` }),
      },
    );
  const sendAgain = (invite: Invite) =>
    resend.mutate(invite.id, {
      onSuccess: (r) => setOutcome({ ok: true, text: t('row.resent', { nom: invite.nom, email: r.email }) }),
      onError: (err) => setOutcome({ ok: false, text: `${invite.nom}: ${problemMessage(err)}` }),
    });

  return (
    <Stack gap="lg">
      <EventHeader eventId={eventId} title={(name) => t('title', { name })} />
      {owner ? (
        <Group justify="space-between" wrap="wrap">
          <Group gap="sm">
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
              {t('add.button')}
            </Button>
            <Button variant="default" onClick={() => setImporting((v) => !v)} aria-expanded={importing}>
              {t('import.button')}
            </Button>
          </Group>
        </Group>
      ) : null}
      {owner && importing ? (
        <section aria-labelledby="import-title">
          <Title order={2} size="h3" id="import-title" mb="sm">
            {t('import.title')}
          </Title>
          <CsvImport eventId={eventId} />
        </section>
      ) : null}
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ search: search.trim() });
        }}
      >
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label={t('filters.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: '1 1 14rem' }}
          />
          <NativeSelect
            label={t('filters.type')}
            value={filter.type_invite}
            onChange={(e) => setFilter({ type_invite: e.currentTarget.value as InviteType | '' })}
            data={[
              { value: '', label: t('filters.all') },
              ...INVITE_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) })),
            ]}
          />
          <NativeSelect
            label={t('filters.presence')}
            value={filter.presence}
            onChange={(e) => setFilter({ presence: e.currentTarget.value as InviteFilter['presence'] })}
            data={[
              { value: '', label: t('filters.all') },
              { value: 'true', label: t('filters.present') },
              { value: 'false', label: t('filters.absent') },
            ]}
          />
          <Button type="submit" variant="default">
            {t('filters.submit')}
          </Button>
        </Group>
      </form>
      {outcome ? (
        <Text role="status" c={outcome.ok ? undefined : 'red.9'} size="sm" data-testid="invite-outcome">
          {outcome.text}
        </Text>
      ) : null}
      {invites.isPending ? (
        <PageLoader />
      ) : invites.error ? (
        <ProblemAlert error={invites.error} />
      ) : invites.data.data.length === 0 ? (
        filter.search || filter.type_invite || filter.presence ? (
          <EmptyState
            title={t('empty')}
            text={t('emptyMatchText')}
            action={
              <Button
                variant="default"
                onClick={() => (setSearch(''), setFilter({ search: '', type_invite: '', presence: '' }))}
              >
                {t('clearFilters')}
              </Button>
            }
          />
        ) : (
          <EmptyState
            title={t('emptyNone')}
            text={t('emptyNoneText')}
            action={
              owner ? (
                <Group gap="sm">
                  <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
                    {t('add.button')}
                  </Button>
                  <Button variant="default" onClick={() => setImporting(true)}>
                    {t('import.button')}
                  </Button>
                </Group>
              ) : undefined
            }
          />
        )
      ) : (
        <>
          <Table.ScrollContainer minWidth={0}>
            <Table striped aria-label={t('table')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('fields.nom')}</Table.Th>
                  <Table.Th scope="col" visibleFrom="sm">
                    {t('fields.email')}
                  </Table.Th>
                  <Table.Th scope="col" visibleFrom="sm">
                    {t('fields.type')}
                  </Table.Th>
                  {wide ? <Table.Th scope="col">{t('fields.presence')}</Table.Th> : null}
                  <Table.Th scope="col">{t('fields.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invites.data.data.map((invite) => (
                  <Table.Tr key={invite.id} data-testid={`invite-${invite.nom}`}>
                    <Table.Th scope="row" fw={500}>
                      {invite.nom}
                      <Text size="xs" c="dimmed" fw={400} hiddenFrom="sm">
                        {invite.email} · {t(`types.${invite.type_invite}`)}
                      </Text>
                      {/* On a phone the presence shows under the name: a column of its own was
                          squeezed by the actions until its badge read "ABS…" (issue 36). */}
                      {wide ? null : (
                        <Box mt={4}>
                          <PresenceBadge invite={invite} />
                        </Box>
                      )}
                    </Table.Th>
                    <Table.Td visibleFrom="sm">{invite.email}</Table.Td>
                    <Table.Td visibleFrom="sm">{t(`types.${invite.type_invite}`)}</Table.Td>
                    {wide ? (
                      <Table.Td>
                        <PresenceBadge invite={invite} />
                      </Table.Td>
                    ) : null}
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        {invite.revoked ? null : invite.presence ? (
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => setPresent(invite, false)}
                            aria-label={t('row.undoFor', { nom: invite.nom })}
                          >
                            {t('row.undo')}
                          </Button>
                        ) : (
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => setPresent(invite, true)}
                            aria-label={t('row.checkInFor', { nom: invite.nom })}
                          >
                            {t('row.checkIn')}
                          </Button>
                        )}
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon
                              variant="default"
                              size="lg"
                              aria-label={t('row.actions', { nom: invite.nom })}
                            >
                              <IconDots size={16} aria-hidden />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            {owner ? (
                              <>
                                <Menu.Item onClick={() => setEditing(invite)}>{t('row.edit')}</Menu.Item>
                                <Menu.Item onClick={() => sendAgain(invite)} disabled={invite.revoked}>
                                  {t('row.resend')}
                                </Menu.Item>
                              </>
                            ) : null}
                            <Menu.Item
                              component="a"
                              href={qrUrl(eventId, invite.id, 'png')}
                              download={`${invite.nom}.png`}
                            >
                              {t('row.qrPng')}
                            </Menu.Item>
                            <Menu.Item
                              component="a"
                              href={qrUrl(eventId, invite.id, 'svg')}
                              download={`${invite.nom}.svg`}
                            >
                              {t('row.qrSvg')}
                            </Menu.Item>
                            {owner ? (
                              <Menu.Item
                                color={invite.revoked ? undefined : 'red'}
                                onClick={() => revoke(invite)}
                              >
                                {invite.revoked ? t('row.restore') : t('row.revoke')}
                              </Menu.Item>
                            ) : null}
                          </Menu.Dropdown>
                        </Menu>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <PagePicker
            lastPage={invites.data.pagination.last_page}
            page={filter.page}
            onChange={(page) => setFilter({ page })}
          />
          <Text size="xs" c="dimmed">
            {t('count', { count: invites.data.pagination.total })}
          </Text>
        </>
      )}
      <InviteModal
        eventId={eventId}
        opened={editing !== null}
        invite={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
      />
    </Stack>
  );
}
