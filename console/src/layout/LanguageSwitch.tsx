import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '../i18n/index.ts';
import classes from './LanguageSwitch.module.css';

/**
 * EN / FR switch; the choice is remembered in this browser. Native radio buttons (arrow keys
 * move, the checked one is announced) styled as a segmented control: Mantine's SegmentedControl
 * and its floating indicator cost the public pages 3 KB gzip (scripts/vote-budget.ts).
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation('common');
  const current = (LANGUAGES as readonly string[]).includes(i18n.resolvedLanguage ?? '')
    ? (i18n.resolvedLanguage as Language)
    : 'en';
  return (
    <fieldset className={classes.group} aria-label={t('language.label')}>
      {LANGUAGES.map((l) => (
        <label key={l} className={classes.option}>
          <input
            type="radio"
            name="console-language"
            value={l}
            checked={current === l}
            onChange={() => void setLanguage(l)}
          />
          {l.toUpperCase()}
        </label>
      ))}
    </fieldset>
  );
}
