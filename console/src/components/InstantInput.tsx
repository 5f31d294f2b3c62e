import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fromLocalInput } from './local-instant.ts';

/**
 * A date and time in the user's time zone (`datetime-local`) that shows under it the instant in
 * UTC, which is what the services store ("2027-06-01 08:00 UTC"), or that none is set. Takes
 * the rest of Mantine's TextInput props (`label`, `error`, `value`, `onChange`...).
 */
export function InstantInput(props: TextInputProps & { value: string }) {
  const { t } = useTranslation('common');
  const utc = fromLocalInput(props.value);
  return (
    <TextInput
      type="datetime-local"
      {...props}
      description={utc ? t('instant.utc', { utc: utc.slice(0, 16).replace('T', ' ') }) : t('instant.none')}
    />
  );
}
