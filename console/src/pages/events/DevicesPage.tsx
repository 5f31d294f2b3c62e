import { useState } from 'react';
import { Anchor, Badge, Button, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { OneFieldForm } from '../../components/OneFieldForm.tsx';
import { useFormatInstant } from '../../components/format.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { SetupCodePanel } from './SetupCodePanel.tsx';
import { EventHeader } from './EventHeader.tsx';
import { useCreateDevice, useDevices, useEventAccess, useRevokeDevice, type Device } from './use-events.ts';

const STATUS_COLOR = { awaiting_setup: 'yellow', active: 'green', revoked: 'gray' } as const;

/**
 * `/events/{event_id}/devices` (the event's owner): create a scanner device and show its
 * one-time setup QR code; list the devices with status, last request and scans; revoke one
 * after a confirmation (effective on its next request). Staff, who may not manage devices, are
 * told so and sent to the door scanner, which works with their session.
 */
export function DevicesPage() {
  const { t } = useTranslation('events');
  const eventId = useParams().eventId ?? '';
  const access = useEventAccess();
  const owner = access.canManage(eventId);
  const devices = useDevices(eventId, owner);
  const create = useCreateDevice(eventId);
  const revoke = useRevokeDevice(eventId);
  const when = useFormatInstant();
  const [revoking, setRevoking] = useState<Device | null>(null);
  const closeRevoke = () => {
    setRevoking(null);
    revoke.reset();
  };

  if (access.access.isPending) return <PageLoader />;
  if (!owner)
    return (
      <Stack gap="lg" maw={960}>
        <EventHeader eventId={eventId} title={(name) => t('devices.title', { name })} />
        {access.canScan(eventId) ? (
          <Text data-testid="devices-staff">
            {t('devices.staffOnly')}{' '}
            <Anchor component={Link} to={`/scan/${eventId}`}>
              {t('list.scanner')}
            </Anchor>
          </Text>
        ) : null}
      </Stack>
    );

  return (
    <Stack gap="lg" maw={960}>
      <EventHeader eventId={eventId} title={(name) => t('devices.title', { name })}>
        <Text c="dimmed">{t('devices.intro')}</Text>
      </EventHeader>
      <section aria-labelledby="new-device">
        <Title order={2} size="h3" id="new-device" mb="sm">
          {t('devices.create.title')}
        </Title>
        <OneFieldForm
          field="name"
          label={t('devices.create.name')}
          description={t('devices.create.nameHint')}
          maxLength={100}
          submitLabel={t('devices.create.submit')}
          validate={(v) => (v.trim() ? null : t('errors.required'))}
          mutate={create.mutate}
          pending={create.isPending}
          error={create.error}
        />
        {create.data ? <SetupCodePanel device={create.data} onDone={() => create.reset()} /> : null}
      </section>
      <section aria-labelledby="device-list">
        <Title order={2} size="h3" id="device-list" mb="sm">
          {t('devices.list.title')}
        </Title>
        {devices.isPending ? (
          <PageLoader />
        ) : devices.error ? (
          <ProblemAlert error={devices.error} />
        ) : devices.data.length === 0 ? (
          <Text c="dimmed">{t('devices.list.empty')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={0}>
            <Table striped aria-label={t('devices.list.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('devices.list.name')}</Table.Th>
                  <Table.Th scope="col">{t('devices.list.status')}</Table.Th>
                  <Table.Th scope="col" visibleFrom="sm">
                    {t('devices.list.created')}
                  </Table.Th>
                  <Table.Th scope="col" visibleFrom="sm">
                    {t('devices.list.lastSeen')}
                  </Table.Th>
                  <Table.Th scope="col" visibleFrom="sm">
                    {t('devices.list.scans')}
                  </Table.Th>
                  <Table.Th scope="col">
                    <VisuallyHidden>{t('devices.list.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {devices.data.map((device) => (
                  <Table.Tr key={device.id} data-testid={`device-${device.name}`}>
                    <Table.Th scope="row" fw={500}>
                      {device.name}
                      <Text size="xs" c="dimmed" fw={400} hiddenFrom="sm">
                        {t('devices.list.lastSeenOn', {
                          when: when(device.last_seen_at, t('devices.list.never')),
                        })}
                        {' · '}
                        {t('devices.list.scansCount', { count: device.scans })}
                      </Text>
                    </Table.Th>
                    <Table.Td>
                      <Badge color={STATUS_COLOR[device.status]} variant="light">
                        {t(`devices.status.${device.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">{when(device.created_at)}</Table.Td>
                    <Table.Td visibleFrom="sm">{when(device.last_seen_at, t('devices.list.never'))}</Table.Td>
                    <Table.Td visibleFrom="sm">{device.scans}</Table.Td>
                    <Table.Td ta="right">
                      {device.status === 'revoked' ? null : (
                        <Button
                          size="xs"
                          color="red"
                          variant="outline"
                          onClick={() => setRevoking(device)}
                          aria-label={t('devices.revoke.button', { name: device.name })}
                        >
                          {t('devices.revoke.short')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </section>
      <ConfirmDialog
        opened={revoking !== null}
        title={t('devices.revoke.title')}
        message={t('devices.revoke.confirm', { name: revoking?.name ?? '' })}
        confirmLabel={t('devices.revoke.confirmButton')}
        cancelLabel={t('devices.revoke.cancel')}
        closeLabel={t('devices.revoke.close')}
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: closeRevoke })}
        onClose={closeRevoke}
      />
    </Stack>
  );
}
