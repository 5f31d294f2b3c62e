import { memo } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dismissFollowUp, type FollowUp } from './scan-store.ts';

/**
 * The queued scans the service refused at sync: most often one invitee admitted offline at
 * two doors (with the first door and time), so staff can follow up. Each stays until dismissed.
 */
export const FollowUpList = memo(function FollowUpList(props: { items: FollowUp[]; onChange: () => void }) {
  const { t, i18n } = useTranslation('scan');
  if (props.items.length === 0) return null;
  const time = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { timeStyle: 'short' }).format(new Date(iso))
      : '';
  return (
    <Alert color="orange" variant="light" title={t('followUps.title', { count: props.items.length })}>
      <Stack
        gap="xs"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        data-testid="follow-ups"
      >
        {props.items.map((f) => (
          <Group key={f.nonce} component="li" justify="space-between" wrap="nowrap" align="flex-start">
            <div style={{ flex: 1, minWidth: 0 }}>
              <Text fw={600}>
                {f.nom ?? f.code} — {t(`result.refused.${f.result}`, { defaultValue: f.message })}
              </Text>
              <Text size="sm">
                {f.result === 'already_checked_in'
                  ? t('followUps.duplicate', {
                      here: time(f.scanned_at),
                      first: time(f.first_checked_in_at),
                      by: f.first_scanne_par ?? t('result.someone'),
                    })
                  : t('followUps.scannedAt', { here: time(f.scanned_at) })}
              </Text>
            </div>
            <Button
              size="xs"
              variant="default"
              style={{ flexShrink: 0 }}
              onClick={() => void dismissFollowUp(f.nonce).then(props.onChange)}
              aria-label={t('followUps.dismiss', { name: f.nom ?? f.code })}
            >
              {t('followUps.dismissShort')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Alert>
  );
});
