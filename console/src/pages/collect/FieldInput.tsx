import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/native/TextField.tsx';
import type { Field } from '../collection/types.ts';
import { localDateTimeText, offsetOf, type Answer, type GeopointDraft, type PhotoDraft } from './answers.ts';
import { ChoiceInput } from './ChoiceInput.tsx';
import { GeopointInput } from './GeopointInput.tsx';
import { PhotoInput } from './PhotoInput.tsx';

/**
 * The input of one form field as a collector sees it, with native controls: text, number
 * (integer or decimal keyboard), date, time (with seconds), radio buttons or checkboxes,
 * geopoint, photo. Used by the web form and, disabled, by the form builder's preview.
 */
export function FieldInput(props: {
  field: Field;
  /** The form's hint for the question (form model), shown under its label. */
  hint?: string;
  value: Answer;
  error?: string;
  disabled?: boolean;
  /**
   * A text-like input keeps what is typed itself, and `value` is written into it only when it
   * differs (the form with logic, whose node does not re-render on each keystroke).
   */
  uncontrolled?: boolean;
  /** Not relevant (form logic): kept in the page, out of sight and of the accessibility tree. */
  hidden?: boolean;
  onChange: (value: Answer) => void;
}) {
  const { t } = useTranslation('collect');
  const { field, hint, value, error, disabled, uncontrolled, hidden, onChange } = props;
  const c = field.constraints ?? {};
  switch (field.type) {
    case 'select_one':
    case 'select_multiple':
      return (
        <ChoiceInput
          field={field}
          hint={hint}
          value={value as string | string[] | null}
          error={error}
          disabled={disabled}
          hidden={hidden}
          onChange={onChange}
        />
      );
    case 'geopoint':
      return (
        <GeopointInput
          field={field}
          value={value as GeopointDraft | null}
          error={error}
          disabled={disabled}
          hidden={hidden}
          onChange={onChange}
        />
      );
    case 'photo':
      return (
        <PhotoInput
          field={field}
          value={value as PhotoDraft | null}
          error={error}
          disabled={disabled}
          hidden={hidden}
          onChange={onChange}
        />
      );
    default: {
      const range =
        c.min !== undefined && c.max !== undefined
          ? t('hints.between', { min: c.min, max: c.max })
          : c.min !== undefined
            ? t('hints.min', { min: c.min })
            : c.max !== undefined
              ? t('hints.max', { max: c.max })
              : c.max_length !== undefined
                ? t('hints.maxLength', { max: c.max_length })
                : undefined;
      const kind = {
        text: { type: 'text' },
        integer: { type: 'number', inputMode: 'numeric', step: 1 },
        decimal: { type: 'number', inputMode: 'decimal', step: 'any' },
        date: { type: 'date' },
        time: { type: 'time', step: 1 },
        datetime: { type: 'datetime-local', step: 1 },
      }[field.type as 'text'] as Record<string, unknown>;
      // A date-time is typed as the device's wall-clock time and sent with the device's offset
      // (answers.ts dateTimeValue), which the description names.
      const isDateTime = field.type === 'datetime';
      const zone = isDateTime ? t('hints.offset', { offset: offsetOf(new Date()) }) : undefined;
      const text = typeof value === 'string' ? value : '';
      return (
        <TextField
          {...kind}
          label={field.label}
          description={[hint, range, zone].filter(Boolean).join(' · ') || undefined}
          required={field.required}
          disabled={disabled}
          min={c.min}
          max={c.max}
          error={error}
          field={field.uuid}
          value={isDateTime ? localDateTimeText(text) : text}
          uncontrolled={uncontrolled}
          hidden={hidden}
          onChange={onChange}
        />
      );
    }
  }
}
