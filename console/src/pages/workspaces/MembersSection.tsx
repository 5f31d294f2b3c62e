import { useState } from 'react';
import { Button, Group, NativeSelect, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useMe } from '../../auth/session.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { assignableRoles, can } from '../collection/roles.ts';
import type { Member, Role, Workspace } from '../collection/types.ts';
import { InviteMemberForm, type InviteNotice } from './InviteMemberForm.tsx';
import { PendingInvitations } from './PendingInvitations.tsx';
import { useRemoveMember, useSetMember } from './use-workspaces.ts';

/**
 * A workspace's members (name, e-mail, role). Owners and admins change roles, invite people by
 * e-mail (members at once, or pending invitations listed below the members) and remove members;
 * only an owner gives, changes or takes the owner role, so an admin sees an owner's role as
 * text. Anyone may leave but the sole owner, who is told why instead of being offered "Leave"
 * (the service would refuse it, 422 `last_owner`). A refusal shows next to the action that
 * caused it.
 */
export function MembersSection({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation(['workspaces', 'collection', 'members']);
  const me = useMe();
  const navigate = useNavigate();
  const setMember = useSetMember();
  const remove = useRemoveMember();
  const [removing, setRemoving] = useState<Member | null>(null);
  const [changedUser, setChangedUser] = useState<number | null>(null);
  const [notice, setNotice] = useState<InviteNotice | null>(null);
  const manage = can(workspace.role, 'members.manage');
  const roles = assignableRoles(workspace.role);
  const members = workspace.members ?? [];
  const leaving = removing?.user_id === me.data?.id;
  const soleOwner = members.filter((m) => m.role === 'owner').length === 1;
  const closeRemove = () => {
    setRemoving(null);
    remove.reset();
  };
  const changeRole = (member: Member, role: Role) => {
    setChangedUser(member.user_id);
    setMember.mutate({ workspaceId: workspace.id, user_id: member.user_id, role });
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="members-heading">
      <Title order={2} id="members-heading">
        {t('members.title')}
      </Title>
      {manage ? (
        <InviteMemberForm workspaceId={workspace.id} roles={roles} notice={notice} onNotice={setNotice} />
      ) : (
        <Text size="sm" c="dimmed">
          {t('members.notAllowed')}
        </Text>
      )}
      <Table aria-labelledby="members-heading" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('members.member')}</Table.Th>
            <Table.Th scope="col">
              {t('members.role')}
              <VisuallyHidden> {t('members.andActions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {members.map((m) => {
            const name = m.name ?? m.email ?? `#${m.user_id}`;
            const isMe = m.user_id === me.data?.id;
            const mayChange = manage && roles.includes(m.role);
            // The sole owner cannot leave (422 last_owner): say why instead of offering it.
            const mustStay = isMe && m.role === 'owner' && soleOwner;
            return (
              <Table.Tr key={m.user_id}>
                <Table.Th scope="row" fw={500}>
                  <Text fw={500} size="sm">
                    {name}
                    {isMe ? ` ${t('members.you')}` : ''}
                  </Text>
                  {m.email && m.name ? (
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                      {m.email}
                    </Text>
                  ) : null}
                </Table.Th>
                <Table.Td>
                  {/* Role and removal share a cell that wraps, so both fit a phone's width. */}
                  <Group gap="xs" wrap="wrap" justify="space-between">
                    {mayChange ? (
                      <NativeSelect
                        size="xs"
                        miw={130}
                        aria-label={t('members.roleOf', { name })}
                        value={m.role}
                        data={roles.map((r) => ({ value: r, label: t(`collection:roles.${r}`) }))}
                        disabled={setMember.isPending && changedUser === m.user_id}
                        onChange={(e) => changeRole(m, e.currentTarget.value as Role)}
                      />
                    ) : (
                      <Text size="sm">{t(`collection:roles.${m.role}`)}</Text>
                    )}
                    {(isMe || mayChange) && !mustStay ? (
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        onClick={() => setRemoving(m)}
                        aria-label={isMe ? t('members.leave') : t('members.remove', { name })}
                      >
                        {isMe ? t('members.leaveShort') : t('members.removeShort')}
                      </Button>
                    ) : null}
                  </Group>
                  {mustStay ? (
                    <Text size="xs" c="dimmed" mt={4}>
                      {t('members:soleOwner')}
                    </Text>
                  ) : null}
                  {changedUser === m.user_id ? <ProblemAlert error={setMember.error} /> : null}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {manage ? (
        <PendingInvitations
          workspace={workspace}
          roles={roles}
          onRevoked={(id) => setNotice(notice?.invitation.id === id ? null : notice)}
        />
      ) : null}
      <ConfirmDialog
        opened={removing !== null}
        title={leaving ? t('members.leaveTitle') : t('members.removeTitle')}
        message={
          leaving
            ? t('members.leaveConfirm', { workspace: workspace.name })
            : t('members.removeConfirm', {
                name: removing?.name ?? removing?.email ?? '',
                workspace: workspace.name,
              })
        }
        confirmLabel={leaving ? t('members.leaveShort') : t('members.removeShort')}
        cancelLabel={t('form.cancel')}
        closeLabel={t('form.close')}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => {
          if (!removing) return;
          // mutateAsync: after leaving, the refreshed workspace answers 404 and this section
          // unmounts, which would drop a `mutate` callback; the promise still settles.
          remove
            .mutateAsync({ workspaceId: workspace.id, userId: removing.user_id })
            .then(() => (leaving ? navigate('/workspaces') : closeRemove()))
            .catch(() => undefined); // shown in the dialog through `remove.error`
        }}
        onClose={closeRemove}
      />
    </Stack>
  );
}
