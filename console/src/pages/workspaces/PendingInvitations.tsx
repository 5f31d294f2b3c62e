import { useState } from 'react';
import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { Role, Workspace } from '../collection/types.ts';
import { useFormatDay } from './format-day.ts';
import {
  useInvitations,
  useResendInvitation,
  useRevokeInvitation,
  type Invitation,
} from './use-invitations.ts';

/**
 * A workspace's open invitations by e-mail (owners and admins): address, role, whether it is
 * still waiting (until when) or expired, who invited; "Resend" sends the e-mail again for 14
 * more days (expired ones too), "Revoke" asks first. An admin sees invitations to the owner
 * role without their actions (only an owner acts on them). Nothing shows when there are none.
 * A refusal shows in the row of the action that caused it.
 */
export function PendingInvitations({
  workspace,
  roles,
  onRevoked,
}: {
  workspace: Workspace;
  roles: Role[];
  /** Called with the id of an invitation just revoked (the form's notice about it goes). */
  onRevoked: (id: number) => void;
}) {
  const { t } = useTranslation(['members', 'workspaces', 'collection']);
  const formatDay = useFormatDay();
  const invitations = useInvitations(workspace.id, true);
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [acted, setActed] = useState<number | null>(null);
  const [resent, setResent] = useState<Invitation | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const closeRevoke = () => {
    setRevoking(null);
    revoke.reset();
  };
  if (invitations.error) return <ProblemAlert error={invitations.error} />;
  const list = invitations.data ?? [];
  if (list.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="invitations-heading">
      <Title order={3} id="invitations-heading">
        {t('pendingTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('pendingHelp')}
      </Text>
      <Table aria-labelledby="invitations-heading" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('address')}</Table.Th>
            <Table.Th scope="col">{t('state')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((inv) => {
            const mayAct = roles.includes(inv.role);
            const expired = inv.status === 'expired';
            return (
              <Table.Tr key={inv.id}>
                <Table.Th scope="row" fw={500}>
                  <Text fw={500} size="sm" style={{ wordBreak: 'break-all' }}>
                    {inv.email}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(`collection:roles.${inv.role}`)}
                    {inv.invited_by_name ? ` · ${t('invitedBy', { name: inv.invited_by_name })}` : ''}
                  </Text>
                </Table.Th>
                <Table.Td>
                  <Group gap="xs" wrap="wrap" justify="space-between">
                    <Badge color={expired ? 'red' : 'blue'} variant="light" style={{ textTransform: 'none' }}>
                      {expired
                        ? t('expired', { date: formatDay(inv.expires_at) })
                        : t('pending', { date: formatDay(inv.expires_at) })}
                    </Badge>
                    {mayAct ? (
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={t('resendLabel', { email: inv.email })}
                          loading={resend.isPending && acted === inv.id}
                          onClick={() => {
                            setActed(inv.id);
                            setResent(null);
                            resend.mutate(
                              { workspaceId: workspace.id, id: inv.id },
                              { onSuccess: (renewed) => setResent(renewed) },
                            );
                          }}
                        >
                          {t('resend')}
                        </Button>
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          aria-label={t('revokeLabel', { email: inv.email })}
                          onClick={() => setRevoking(inv)}
                        >
                          {t('revoke')}
                        </Button>
                      </Group>
                    ) : null}
                  </Group>
                  {acted === inv.id ? (
                    <div aria-live="polite">
                      {resent?.id === inv.id ? (
                        <Text size="xs" c="dimmed" mt={4}>
                          {t('resent', { email: inv.email, date: formatDay(resent.expires_at) })}
                        </Text>
                      ) : null}
                      <ProblemAlert error={resend.error} />
                    </div>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <ConfirmDialog
        opened={revoking !== null}
        title={t('revokeTitle')}
        message={t('revokeConfirm', { email: revoking?.email ?? '', workspace: workspace.name })}
        confirmLabel={t('revoke')}
        cancelLabel={t('workspaces:form.cancel')}
        closeLabel={t('workspaces:form.close')}
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => {
          if (revoking)
            revoke.mutate(
              { workspaceId: workspace.id, id: revoking.id },
              {
                onSuccess: () => {
                  onRevoked(revoking.id);
                  closeRevoke();
                },
              },
            );
        }}
        onClose={closeRevoke}
      />
    </Stack>
  );
}
