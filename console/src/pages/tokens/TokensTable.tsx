import { useState } from 'react';
import { Button, Group, Modal, Pagination, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatInstant } from '../../components/format.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
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
        <Table.ScrollContainer minWidth={480}>
          <Table striped highlightOnHover aria-label={t('list.label')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('list.name')}</Table.Th>
                <Table.Th scope="col">{t('list.created')}</Table.Th>
                <Table.Th scope="col">{t('list.lastUsed')}</Table.Th>
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
                  </Table.Th>
                  <Table.Td>{when(token.created_at)}</Table.Td>
                  <Table.Td>{when(token.last_used_at, t('list.never'))}</Table.Td>
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
      {pagination.last_page > 1 ? (
        <Pagination
          total={pagination.last_page}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': t(`list.page.${control}`) })}
          getItemProps={(p) => ({ 'aria-label': t('list.page.number', { page: p }) })}
        />
      ) : null}
      <Text size="xs" c="dimmed">
        {t('list.count', { count: pagination.total, perPage: PER_PAGE })}
      </Text>
      <Modal
        opened={revoking !== null}
        onClose={close}
        title={t('revoke.title')}
        centered
        closeButtonProps={{ 'aria-label': t('revoke.close') }}
      >
        <Stack gap="sm">
          <Text>{t('revoke.confirm', { name: revoking?.name ?? '' })}</Text>
          <ProblemAlert error={revoke.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('revoke.cancel')}
            </Button>
            <Button
              color="red"
              loading={revoke.isPending}
              onClick={() => revoking && revoke.mutate(revoking.id, { onSuccess: close })}
            >
              {t('revoke.confirmButton')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
