import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  LIMITS,
  newOption,
  newSection,
  SECTION_KINDS,
  type PollFormValues,
  type SectionKind,
} from './poll-form.ts';

type Form = UseFormReturnType<PollFormValues>;

/** Up, down and remove buttons of one list item, each named after what it moves. */
function ItemControls(props: {
  name: string;
  index: number;
  count: number;
  min: number;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('polls');
  const { name, index, count, min } = props;
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        variant="default"
        aria-label={t('editor.moveUp', { name })}
        disabled={index === 0}
        onClick={() => props.onMove(index - 1)}
      >
        <IconArrowUp size={16} aria-hidden />
      </ActionIcon>
      <ActionIcon
        variant="default"
        aria-label={t('editor.moveDown', { name })}
        disabled={index === count - 1}
        onClick={() => props.onMove(index + 1)}
      >
        <IconArrowDown size={16} aria-hidden />
      </ActionIcon>
      <ActionIcon
        variant="default"
        color="red"
        aria-label={t('editor.remove', { name })}
        disabled={count <= min}
        onClick={props.onRemove}
      >
        <IconTrash size={16} aria-hidden />
      </ActionIcon>
    </Group>
  );
}

/**
 * The poll's sections (1 to 20), each with a title and its options (2 to 50): add, rename,
 * reorder with up/down buttons, remove (never below the minimum). Keyboard only: every control
 * is a button or a field with its own name ("Move option 2 of section 1 up"...).
 */
export function SectionsEditor({ form }: { form: Form }) {
  const { t } = useTranslation('polls');
  const sections = form.values.sections;
  return (
    <Stack gap="md">
      {sections.map((section, s) => {
        const sectionName = t('editor.sectionN', { n: s + 1 });
        return (
          <Fieldset key={section.key} legend={sectionName} variant="filled">
            <Stack gap="sm">
              <Group align="flex-end" wrap="nowrap" gap="xs">
                <TextInput
                  label={t('editor.sectionTitle', { n: s + 1 })}
                  required
                  maxLength={LIMITS.label}
                  style={{ flex: 1 }}
                  key={form.key(`sections.${s}.title`)}
                  {...form.getInputProps(`sections.${s}.title`)}
                />
                <ItemControls
                  name={sectionName}
                  index={s}
                  count={sections.length}
                  min={LIMITS.sections.min}
                  onMove={(to) => form.reorderListItem('sections', { from: s, to })}
                  onRemove={() => form.removeListItem('sections', s)}
                />
              </Group>
              <Group align="flex-end" gap="xs" wrap="wrap">
                <NativeSelect
                  label={t('editor.kind', { n: s + 1 })}
                  description={t(`editor.kindHint.${section.kind}`)}
                  data={SECTION_KINDS.map((k) => ({ value: k, label: t(`editor.kinds.${k}`) }))}
                  style={{ flex: '1 1 14rem' }}
                  key={form.key(`sections.${s}.kind`)}
                  {...form.getInputProps(`sections.${s}.kind`)}
                  onChange={(e) =>
                    form.setFieldValue(`sections.${s}.kind`, e.currentTarget.value as SectionKind)
                  }
                />
                {section.kind === 'multiple' ? (
                  <>
                    <NumberInput
                      label={t('editor.minChoices', { n: s + 1 })}
                      min={1}
                      max={section.options.length}
                      allowDecimal={false}
                      style={{ width: '9rem' }}
                      key={form.key(`sections.${s}.min_choices`)}
                      {...form.getInputProps(`sections.${s}.min_choices`)}
                    />
                    <NumberInput
                      label={t('editor.maxChoices', { n: s + 1 })}
                      min={1}
                      max={section.options.length}
                      allowDecimal={false}
                      style={{ width: '9rem' }}
                      key={form.key(`sections.${s}.max_choices`)}
                      {...form.getInputProps(`sections.${s}.max_choices`)}
                    />
                  </>
                ) : null}
              </Group>
              <Stack gap="xs" pl={{ base: 0, sm: 'md' }}>
                {section.options.map((option, o) => {
                  const optionName = t('editor.optionN', { n: o + 1, section: s + 1 });
                  const meeting = section.kind === 'meeting';
                  return (
                    <Group key={option.key} align="flex-end" wrap={meeting ? 'wrap' : 'nowrap'} gap="xs">
                      <TextInput
                        label={optionName}
                        required
                        maxLength={LIMITS.label}
                        style={{ flex: meeting ? '1 1 12rem' : 1 }}
                        key={form.key(`sections.${s}.options.${o}.label`)}
                        {...form.getInputProps(`sections.${s}.options.${o}.label`)}
                      />
                      {meeting ? (
                        <>
                          <TextInput
                            type="datetime-local"
                            label={t('editor.slotStart', { n: o + 1, section: s + 1 })}
                            required
                            style={{ flex: '1 1 12rem' }}
                            key={form.key(`sections.${s}.options.${o}.starts_at`)}
                            {...form.getInputProps(`sections.${s}.options.${o}.starts_at`)}
                          />
                          <TextInput
                            type="datetime-local"
                            label={t('editor.slotEnd', { n: o + 1, section: s + 1 })}
                            style={{ flex: '1 1 12rem' }}
                            key={form.key(`sections.${s}.options.${o}.ends_at`)}
                            {...form.getInputProps(`sections.${s}.options.${o}.ends_at`)}
                          />
                        </>
                      ) : null}
                      <ItemControls
                        name={optionName}
                        index={o}
                        count={section.options.length}
                        min={LIMITS.options.min}
                        onMove={(to) => form.reorderListItem(`sections.${s}.options`, { from: o, to })}
                        onRemove={() => form.removeListItem(`sections.${s}.options`, o)}
                      />
                    </Group>
                  );
                })}
                <Button
                  variant="subtle"
                  size="xs"
                  leftSection={<IconPlus size={14} aria-hidden />}
                  disabled={section.options.length >= LIMITS.options.max}
                  onClick={() => form.insertListItem(`sections.${s}.options`, newOption())}
                  style={{ alignSelf: 'flex-start' }}
                >
                  {t('editor.addOption', { n: s + 1 })}
                </Button>
              </Stack>
            </Stack>
          </Fieldset>
        );
      })}
      <Button
        variant="light"
        leftSection={<IconPlus size={16} aria-hidden />}
        disabled={sections.length >= LIMITS.sections.max}
        onClick={() => form.insertListItem('sections', newSection())}
        style={{ alignSelf: 'flex-start' }}
      >
        {t('editor.addSection')}
      </Button>
    </Stack>
  );
}
