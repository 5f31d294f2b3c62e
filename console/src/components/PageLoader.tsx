import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What a page shows while its code or its first data loads (announced as "Loading"). */
export function PageLoader() {
  const { t } = useTranslation('common');
  return (
    <Center mih={200} role="status">
      <Loader />
      <VisuallyHidden>{t('loading')}</VisuallyHidden>
    </Center>
  );
}
