import { useState, type ChangeEvent } from 'react';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useServiceErrors } from '../../components/field-errors.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { FIELD_TYPES, type Field, type FieldType } from '../collection/types.ts';
import {
  fieldFormErrors,
  fieldFormValues,
  fieldInputOf,
  isNumber,
  isSelect,
  type FieldFormValues,
} from './field-form.ts';
import { fieldNameFromLabel } from './field-name.ts';
import type { FieldInput } from './use-form-builder.ts';

/**
 * Adds or edits one field of a draft version: name, label, type, required, and the constraints
 * its type takes (min/max for numbers, length and pattern for text, choices for the select
 * types). The rules are checked here first; the service's 422 shows under the same fields.
 * A new field's name follows its label (fieldNameFromLabel, unique among `takenNames`, the
 * version's other names) until the user types a name of their own; an existing field's name
 * never changes by itself (answers already collected are keyed by it).
 */
export function FieldModal(props: {
  opened: boolean;
  field: Field | null;
  /** The names of the version's other fields. */
  takenNames: readonly string[];
  pending: boolean;
  error: unknown;
  onSave: (body: FieldInput) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(['formBuilder', 'collection']);
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.field ? t('field.editTitle', { label: props.field.label }) : t('field.addTitle')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('field.close') }}
    >
      <FieldForm {...props} />
    </Modal>
  );
}

function FieldForm(props: Parameters<typeof FieldModal>[0]) {
  const { t } = useTranslation(['formBuilder', 'collection']);
  const form = useForm<FieldFormValues>({
    initialValues: fieldFormValues(props.field ?? undefined),
    validate: (v) => fieldFormErrors(v, (k) => t(k)),
  });
  useServiceErrors(form, props.error);
  /** Whether the name is the user's own (typed, or the existing field's): then the label leaves it. */
  const [nameOwned, setNameOwned] = useState(props.field !== null);
  const onLabel = (e: ChangeEvent<HTMLInputElement>) => {
    const label = e.currentTarget.value;
    form.setFieldValue('label', label);
    if (!nameOwned) form.setFieldValue('name', fieldNameFromLabel(label, props.takenNames));
  };
  const onName = (e: ChangeEvent<HTMLInputElement>) => {
    const name = e.currentTarget.value;
    form.setFieldValue('name', name);
    // Emptied: the label names it again.
    setNameOwned(name !== '');
  };
  const type = form.values.type;
  /** A constraint box: its value is the editor's, its error the service's key (`constraints.min`...). */
  const constraint = (key: 'min' | 'max' | 'max_length' | 'pattern') => ({
    value: form.values[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => form.setFieldValue(key, e.currentTarget.value),
    error: form.errors[`constraints.${key}`],
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => props.onSave(fieldInputOf(v)))}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('field.label')}
            required
            data-autofocus
            {...form.getInputProps('label')}
            onChange={onLabel}
          />
          <TextInput
            label={t('field.name')}
            description={nameOwned ? t('field.nameHint') : t('field.nameDerived')}
            required
            {...form.getInputProps('name')}
            onChange={onName}
          />
        </SimpleGrid>
        <NativeSelect
          label={t('field.type')}
          data={FIELD_TYPES.map((ft) => ({ value: ft, label: t(`collection:fieldTypes.${ft}`) }))}
          {...form.getInputProps('type')}
          onChange={(e) => form.setFieldValue('type', e.currentTarget.value as FieldType)}
        />
        <Checkbox label={t('field.required')} {...form.getInputProps('required', { type: 'checkbox' })} />
        {isNumber(type) ? (
          <SimpleGrid cols={2}>
            <TextInput type="number" label={t('field.min')} {...constraint('min')} />
            <TextInput type="number" label={t('field.max')} {...constraint('max')} />
          </SimpleGrid>
        ) : null}
        {type === 'text' ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput type="number" label={t('field.maxLength')} {...constraint('max_length')} />
            <TextInput
              label={t('field.pattern')}
              description={t('field.patternHint')}
              {...constraint('pattern')}
            />
          </SimpleGrid>
        ) : null}
        {type === 'photo' ? (
          <Text size="sm" c="dimmed">
            {t('field.photoHint')}
          </Text>
        ) : null}
        {isSelect(type) ? (
          <Stack gap="xs" component="fieldset" m={0} p={0} style={{ border: 0 }}>
            <Text component="legend" fw={500} size="sm">
              {t('field.choices')}
            </Text>
            {form.values.choices.map((_, i) => (
              <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
                <TextInput
                  aria-label={t('field.choiceLabel', { n: i + 1 })}
                  placeholder={t('field.choiceLabelPlaceholder')}
                  style={{ flex: 2 }}
                  {...form.getInputProps(`choices.${i}.label`)}
                />
                <TextInput
                  aria-label={t('field.choiceValue', { n: i + 1 })}
                  placeholder={t('field.choiceValuePlaceholder')}
                  style={{ flex: 1 }}
                  {...form.getInputProps(`choices.${i}.value`)}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  disabled={form.values.choices.length <= 1}
                  aria-label={t('field.removeChoice', { n: i + 1 })}
                  onClick={() => form.removeListItem('choices', i)}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
            {form.errors.choices ? (
              <Text c="red" size="sm">
                {form.errors.choices}
              </Text>
            ) : null}
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => form.insertListItem('choices', { value: '', label: '' })}
              style={{ alignSelf: 'flex-start' }}
            >
              {t('field.addChoice')}
            </Button>
          </Stack>
        ) : null}
        <ProblemAlert error={props.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('field.cancel')}
          </Button>
          <Button type="submit" loading={props.pending}>
            {props.field ? t('field.save') : t('field.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
