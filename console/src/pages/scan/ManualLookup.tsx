import { memo, useState } from 'react';
import { Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import type { DeviceApi } from './scan-api.ts';

/**
 * Search by name (or e-mail, or a whole code) for invitees who come without their code, with a
 * check-in button for each one not yet present; the check-in goes through the same scan path
 * (green, red or amber). Errors show under the search.
 */
export const ManualLookup = memo(function ManualLookup(props: {
  api: DeviceApi;
  eventId: string;
  onCheckIn: (code: string) => void;
}) {
  const { t } = useTranslation('scan');
  const [term, setTerm] = useState('');
  const [searched, setSearched] = useState('');
  const found = useQuery({
    queryKey: ['scan', props.eventId, 'lookup', searched],
    queryFn: () => props.api.lookup(searched),
    enabled: searched.length > 0,
    retry: false,
    meta: { signInOn401: false },
  });
  return (
    <Stack gap="xs">
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setSearched(term.trim());
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={t('lookup.label')}
            value={term}
            onChange={(e) => setTerm(e.currentTarget.value)}
            style={{ flex: 1 }}
            maxLength={255}
          />
          <Button type="submit" variant="default" loading={found.isFetching}>
            {t('lookup.submit')}
          </Button>
        </Group>
      </form>
      <ProblemAlert error={found.error} />
      {found.data ? (
        found.data.data.length === 0 ? (
          <Text size="sm">{t('lookup.none')}</Text>
        ) : (
          <Stack
            gap={4}
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            aria-label={t('lookup.results')}
          >
            {found.data.data.map((invite) => (
              <Group key={invite.id} component="li" justify="space-between" wrap="nowrap" gap="xs">
                <div>
                  <Text fw={600}>{invite.nom}</Text>
                  <Text size="xs" c="dimmed">
                    {t(`types.${invite.type_invite}`, { defaultValue: invite.type_invite })}
                  </Text>
                </div>
                {invite.presence ? (
                  <Badge color="green" variant="light">
                    {t('lookup.present')}
                  </Badge>
                ) : (
                  <Button
                    size="xs"
                    onClick={() => props.onCheckIn(invite.code_unique)}
                    aria-label={t('lookup.checkIn', { name: invite.nom })}
                  >
                    {t('lookup.checkInShort')}
                  </Button>
                )}
              </Group>
            ))}
          </Stack>
        )
      ) : null}
    </Stack>
  );
});
