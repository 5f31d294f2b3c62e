import { Button, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { looksLikeEmail } from '../../components/email.ts';
import { OneFieldForm } from '../../components/OneFieldForm.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { useGrantStaff, useRevokeStaff, useStaff, type EventSummary } from './use-events.ts';

/**
 * The event's staff (the check-in role: they see the event and its invitees and scan): list,
 * give the role by e-mail (the user must have used Fieldhouse once), take it back. Owner only:
 * staff opening it see the service's 403 in place of the list.
 */
export function StaffModal(props: { event: EventSummary | null; onClose: () => void }) {
  const { t } = useTranslation('events');
  const eventId = props.event?.id ?? '';
  const staff = useStaff(props.event?.id);
  const grant = useGrantStaff(eventId);
  const revoke = useRevokeStaff(eventId);
  return (
    <Modal
      opened={props.event !== null}
      onClose={props.onClose}
      title={t('staff.title', { name: props.event?.name ?? '' })}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('staff.close') }}
    >
      <Stack gap="md">
        <Text size="sm">{t('staff.intro')}</Text>
        {staff.isPending ? (
          <PageLoader />
        ) : staff.error ? (
          <ProblemAlert error={staff.error} />
        ) : staff.data.length === 0 ? (
          <Text c="dimmed">{t('staff.empty')}</Text>
        ) : (
          <Table aria-label={t('staff.list')}>
            <Table.Tbody>
              {staff.data.map((s) => (
                <Table.Tr key={s.user_id}>
                  <Table.Th scope="row" fw={500}>
                    {s.name ?? `#${s.user_id}`}
                    <Text size="xs" c="dimmed" fw={400}>
                      {s.email}
                    </Text>
                  </Table.Th>
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      color="red"
                      variant="outline"
                      loading={revoke.isPending && revoke.variables === s.user_id}
                      onClick={() => revoke.mutate(s.user_id)}
                      aria-label={t('staff.remove', { name: s.name ?? s.email ?? s.user_id })}
                    >
                      {t('staff.removeShort')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <ProblemAlert error={revoke.error} />
        {staff.error ? null : (
          <OneFieldForm
            field="email"
            type="email"
            label={t('staff.email')}
            description={t('staff.emailHint')}
            submitLabel={t('staff.add')}
            validate={(v) => (looksLikeEmail(v) ? null : t('errors.email'))}
            mutate={grant.mutate}
            pending={grant.isPending}
            error={grant.error}
          />
        )}
      </Stack>
    </Modal>
  );
}
