import { useState } from 'react';
import {
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { EventForm } from './EventForm.tsx';
import { StaffModal } from './StaffModal.tsx';
import { localDateTimeLabel } from './local-date-time.ts';
import {
  useDeleteEvent,
  useEvent,
  useEventAccess,
  useEvents,
  type EventSummary,
  type EventsWhen,
} from './use-events.ts';

/**
 * `/events`: the caller's events (owned or staffed) by start date, upcoming, past or all; create
 * one; each links to its scanner devices and its door scanner, and can be deleted after a
 * confirmation naming what goes (the service refuses staff with 403, shown in the dialog).
 * `?new=1` (the start page's "Create an event") opens the creation dialog.
 */
export function EventsPage() {
  const { t, i18n } = useTranslation('events');
  const [when, setWhen] = useState<EventsWhen>('upcoming');
  const events = useEvents(when);
  const [params] = useSearchParams();
  const [creating, setCreating] = useState(params.get('new') === '1');
  const [deleting, setDeleting] = useState<EventSummary | null>(null);
  const [editing, setEditing] = useState<EventSummary | null>(null);
  const [staffOf, setStaffOf] = useState<EventSummary | null>(null);
  const remove = useDeleteEvent();
  // Staff see the invitees, attendance and the door scanner; only the owner edits, staffs, deletes.
  const access = useEventAccess();
  const closeDelete = () => {
    setDeleting(null);
    remove.reset();
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('list.title')}</Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          {t('list.create')}
        </Button>
      </Group>
      <SegmentedControl
        aria-label={t('list.when')}
        value={when}
        onChange={(v) => setWhen(v as EventsWhen)}
        data={[
          { value: 'upcoming', label: t('list.upcoming') },
          { value: 'past', label: t('list.past') },
          { value: 'all', label: t('list.all') },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {events.isPending ? (
        <PageLoader />
      ) : events.error ? (
        <ProblemAlert error={events.error} />
      ) : events.data.length === 0 ? (
        <EmptyState
          title={t(`list.emptyWhen.${when}`)}
          text={t('list.emptyText')}
          action={
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
              {t('list.createFirst')}
            </Button>
          }
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {events.data.map((event) => (
            <Card
              key={event.id}
              withBorder
              padding="md"
              component="article"
              aria-labelledby={`event-${event.id}`}
            >
              <Stack gap="xs">
                <Title order={2} size="h4" id={`event-${event.id}`}>
                  {event.name}
                </Title>
                <Text size="sm">{localDateTimeLabel(event.start_date, i18n.language)}</Text>
                <Text size="sm" c="dimmed">
                  {event.location}
                </Text>
                <Group gap="sm" wrap="wrap">
                  <Anchor component={Link} to={`/events/${event.id}/invites`} size="sm">
                    {t('list.invites')}
                  </Anchor>
                  <Anchor component={Link} to={`/events/${event.id}/attendance`} size="sm">
                    {t('list.attendance')}
                  </Anchor>
                  {access.canManage(event.id) ? (
                    <Anchor component={Link} to={`/events/${event.id}/devices`} size="sm">
                      {t('list.devices')}
                    </Anchor>
                  ) : null}
                  <Anchor component={Link} to={`/scan/${event.id}`} size="sm">
                    {t('list.scanner')}
                  </Anchor>
                  {access.canManage(event.id) ? (
                    <OwnerActions
                      event={event}
                      onEdit={setEditing}
                      onStaff={setStaffOf}
                      onDelete={setDeleting}
                    />
                  ) : null}
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <Modal
        opened={creating}
        onClose={() => setCreating(false)}
        title={t('create.title')}
        centered
        closeButtonProps={{ 'aria-label': t('create.close') }}
      >
        <EventForm onDone={() => setCreating(false)} />
      </Modal>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={t('edit.title', { name: editing?.name ?? '' })}
        centered
        closeButtonProps={{ 'aria-label': t('create.close') }}
      >
        {editing ? <EditEvent eventId={editing.id} onDone={() => setEditing(null)} /> : null}
      </Modal>
      <StaffModal event={staffOf} onClose={() => setStaffOf(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('delete.title')}
        message={t('delete.confirm', { name: deleting?.name ?? '' })}
        confirmLabel={t('delete.confirmButton')}
        cancelLabel={t('delete.cancel')}
        closeLabel={t('delete.close')}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: closeDelete })}
        onClose={closeDelete}
      />
    </Stack>
  );
}

/** The edit form once the event's detail (with its description and end) is loaded. */
function EditEvent(props: { eventId: string; onDone: () => void }) {
  const event = useEvent(props.eventId);
  if (event.isPending) return <PageLoader />;
  if (event.error) return <ProblemAlert error={event.error} />;
  return <EventForm event={event.data} onDone={props.onDone} />;
}

/** The owner's buttons on an event's card: edit, staff (the check-in role), delete. */
function OwnerActions(props: {
  event: EventSummary;
  onEdit: (e: EventSummary) => void;
  onStaff: (e: EventSummary) => void;
  onDelete: (e: EventSummary) => void;
}) {
  const { t } = useTranslation('events');
  const { event } = props;
  return (
    <>
      <Button
        size="xs"
        variant="default"
        onClick={() => props.onEdit(event)}
        aria-label={t('edit.button', { name: event.name })}
      >
        {t('edit.short')}
      </Button>
      <Button
        size="xs"
        variant="default"
        onClick={() => props.onStaff(event)}
        aria-label={t('staff.button', { name: event.name })}
      >
        {t('staff.short')}
      </Button>
      <Button
        size="xs"
        color="red"
        variant="outline"
        onClick={() => props.onDelete(event)}
        aria-label={t('delete.button', { name: event.name })}
      >
        {t('delete.short')}
      </Button>
    </>
  );
}
