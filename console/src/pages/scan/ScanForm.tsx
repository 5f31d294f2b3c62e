import { memo, useRef, useState } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Whether the user is working in another control (manual search), which keeps its focus. */
const focusElsewhere = () => {
  const el = document.activeElement;
  return el !== null && el !== document.body && el.getAttribute('data-scan-input') === null;
};

/**
 * The scanner's code input: USB and Bluetooth scanners type the code and Enter, people type it.
 * It keeps the focus (given back after any click outside another control) and clears itself for
 * the next scan. Its typing state is its own, so a keystroke re-renders only this form.
 */
export const ScanForm = memo(function ScanForm(props: { onScan: (code: string) => void; disabled: boolean }) {
  const { t } = useTranslation('scan');
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onScan(value);
        setValue('');
        input.current?.focus();
      }}
    >
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          ref={input}
          data-scan-input=""
          label={t('input.label')}
          description={t('input.hint')}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          onBlur={() => window.setTimeout(() => !focusElsewhere() && input.current?.focus(), 0)}
          autoFocus
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          disabled={props.disabled}
          size="lg"
          style={{ flex: 1 }}
          styles={{ wrapper: { width: '100%' } }}
        />
        <Button type="submit" size="lg" disabled={props.disabled}>
          {t('input.submit')}
        </Button>
      </Group>
    </form>
  );
});
