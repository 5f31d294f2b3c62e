import { useState } from 'react';
import { Box, Button, Group, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useTranslation } from 'react-i18next';
import { useFormatInstant } from '../../components/format.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { PagePicker } from '../../components/PagePicker.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { PER_PAGE, useRevokeToken, useTokens, type Token } from './use-tokens.ts';

/**
 * The caller's tokens (name, created, last used), newest first, paginated; each with a revoke
 * button that asks for confirmation. A refused revocation shows in the dialog. A table from a
 * tablet up; on a phone (under Mantine's `sm`, 48em) a list of cards, so no sideways scrolling
 * hides the Revoke buttons.
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
  const revokeButton = (token: Token) => (
    <Button
      size="xs"
      color="red"
      variant="light"
      onClick={() => setRevoking(token)}
      aria-label={t('revoke.button', { name: token.name })}
    >
      {t('revoke.short')}
    </Button>
  );
  const close = () => {
    setRevoking(null);
    revoke.reset();
  };
  return (
    <Stack gap="sm">
      {data.length === 0 ? (
        <Text c="dimmed">{t('list.empty')}</Text>
      ) : (
        <>
          {/* A table from a tablet up; on a phone, one card per token with its Revoke button in view. */}
          <Box visibleFrom="sm">
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
                    <Table.Th scope="row" fw={500} style={{ wordBreak: 'break-word' }}>
                      {token.name}
                    </Table.Th>
                    <Table.Td>{when(token.created_at)}</Table.Td>
                    <Table.Td>{when(token.last_used_at, t('list.never'))}</Table.Td>
                    <Table.Td ta="right">{revokeButton(token)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Box>
          <Stack
            hiddenFrom="sm"
            gap="xs"
            component="ul"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            aria-label={t('list.label')}
          >
            {data.map((token) => (
              <Paper component="li" key={token.id} withBorder p="sm">
                <Stack gap={6}>
                  <Text fw={500} style={{ wordBreak: 'break-word' }}>
                    {token.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('list.createdOn', { when: when(token.created_at) })}
                    <br />
                    {t('list.lastUsedOn', { when: when(token.last_used_at, t('list.never')) })}
                  </Text>
                  <Group justify="flex-end">{revokeButton(token)}</Group>
                </Stack>
              </Paper>
            ))}
          </Stack>
        </>
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
