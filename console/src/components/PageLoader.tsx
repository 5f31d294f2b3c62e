import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What a page shows while its code or its first data loads. */
export function PageLoader() {
  const { t } = useTranslation('common');
  return (
    <Center mih={200} role="status" aria-live="polite">
      <Loader aria-label={t('loading')} />
    </Center>
  );
}
