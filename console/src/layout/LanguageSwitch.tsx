import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '../i18n/index.ts';

/** EN / FR switch; the choice is remembered in this browser. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation('common');
  const current = (LANGUAGES as readonly string[]).includes(i18n.resolvedLanguage ?? '')
    ? (i18n.resolvedLanguage as Language)
    : 'en';
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('language.label')}
      value={current}
      onChange={(v) => void setLanguage(v as Language)}
      data={LANGUAGES.map((l) => ({ value: l, label: l.toUpperCase() }))}
    />
  );
}
