import { useState } from 'react';
import { Button, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useTranslation } from 'react-i18next';
import { useFormatInstant } from '../../components/format.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { PagePicker } from '../../components/PagePicker.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { PER_PAGE, useRevokeToken, useTokens, type Token } from './use-tokens.ts';

/**
 * The caller's tokens (name, created, last used), newest first, paginated; each with a revoke
 * button that asks for confirmation. A refused revocation shows in the dialog.
 */
export function TokensTable() {
  const { t } = useTranslation('tokens');
  const when = useFormatInstant();
  const [page, setPage] = useState(1);
  const tokens = useTokens(page);
  const [revoking, setRevoking] = useState<Token | null>(null);
  const revoke = useRevokeToken();

  if (tokens.isPending) return <PageLoader />;
  if (tokens.error) return <ProblemAlert error={tokens.error} />;
  const { data, pagination } = tokens.data;
  const close = () => {
    setRevoking(null);
    revoke.reset();
  };
  return (
    <Stack gap="sm">
      {data.length === 0 ? (
        <Text c="dimmed">{t('list.empty')}</Text>
      ) : (
        // On a phone the dates go under the name, so the Revoke button stays in view.
        <Table.ScrollContainer minWidth={0}>
          <Table striped highlightOnHover aria-label={t('list.label')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('list.name')}</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  {t('list.created')}
                </Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  {t('list.lastUsed')}
                </Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>{t('list.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Th scope="row" fw={500}>
                    {token.name}
                    <Text size="xs" c="dimmed" fw={400} hiddenFrom="sm">
                      {t('list.createdOn', { when: when(token.created_at) })}
                      <br />
                      {t('list.lastUsedOn', { when: when(token.last_used_at, t('list.never')) })}
                    </Text>
                  </Table.Th>
                  <Table.Td visibleFrom="sm">{when(token.created_at)}</Table.Td>
                  <Table.Td visibleFrom="sm">{when(token.last_used_at, t('list.never'))}</Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      onClick={() => setRevoking(token)}
                      aria-label={t('revoke.button', { name: token.name })}
                    >
                      {t('revoke.short')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <PagePicker lastPage={pagination.last_page} page={page} onChange={setPage} />
      <Text size="xs" c="dimmed">
        {t('list.count', { count: pagination.total, perPage: PER_PAGE })}
      </Text>
      <ConfirmDialog
        opened={revoking !== null}
        title={t('revoke.title')}
        message={t('revoke.confirm', { name: revoking?.name ?? '' })}
        confirmLabel={t('revoke.confirmButton')}
        cancelLabel={t('revoke.cancel')}
        closeLabel={t('revoke.close')}
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: close })}
        onClose={close}
      />
    </Stack>
  );
}
