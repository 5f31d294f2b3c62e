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
import { ExpressionInput } from '../../components/form-logic/ExpressionInput.tsx';
import { FIELD_TYPES } from '../collection/types.ts';
import {
  APPEARANCES,
  fieldFormErrors,
  fieldFormValues,
  fieldInputOf,
  isAnswered,
  isNumber,
  isSelect,
  MODEL_TYPES,
  type FieldFormValues,
  type ModelField,
  type ModelType,
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
  field: ModelField | null;
  /** The names of the version's other fields. */
  takenNames: readonly string[];
  /** Every field name of the version (what `${name}` may reference). */
  fieldNames: readonly string[];
  /** The groups and repeats this field may be placed in (not itself nor inside itself). */
  containers: ReadonlyArray<{ name: string; label: string }>;
  /** A new field's group or repeat ("add inside"). */
  parent?: string;
  /** The version's languages beside its default one, and the default (null: one language). */
  otherLanguages: readonly string[];
  defaultLanguage: string | null;
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
  const form = useFieldForm(fieldFormValues(props.field ?? undefined, props.otherLanguages, props.parent));
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
    <form noValidate onSubmit={form.onSubmit((v) => props.onSave(fieldInputOf(v, props.defaultLanguage)))}>
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
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label={t('field.type')}
            data={[
              ...FIELD_TYPES.map((ft) => ({ value: ft, label: t(`collection:fieldTypes.${ft}`) })),
              ...MODEL_TYPES.map((ft) => ({ value: ft, label: t(`types.${ft}`) })),
            ]}
            {...form.getInputProps('type')}
            onChange={(e) => form.setFieldValue('type', e.currentTarget.value as ModelType)}
          />
          <NativeSelect
            label={t('field.parent')}
            data={[
              { value: '', label: t('field.topLevel') },
              ...props.containers.map((c) => ({ value: c.name, label: `${c.label} (${c.name})` })),
            ]}
            {...form.getInputProps('parent')}
          />
        </SimpleGrid>
        <TextInput label={t('field.hint')} {...form.getInputProps('hint')} />
        {isAnswered(type) ? (
          <Checkbox label={t('field.required')} {...form.getInputProps('required', { type: 'checkbox' })} />
        ) : null}
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
              <Group key={i} gap="xs" align="flex-start" wrap="wrap">
                <TextInput
                  aria-label={t('field.choiceLabel', { n: i + 1 })}
                  placeholder={t('field.choiceLabelPlaceholder')}
                  style={{ flex: '2 1 9rem' }}
                  {...form.getInputProps(`choices.${i}.label`)}
                />
                <TextInput
                  aria-label={t('field.choiceValue', { n: i + 1 })}
                  placeholder={t('field.choiceValuePlaceholder')}
                  style={{ flex: '1 1 5rem' }}
                  {...form.getInputProps(`choices.${i}.value`)}
                />
                <TextInput
                  aria-label={t('field.choiceProperties', { n: i + 1 })}
                  placeholder={t('field.choicePropertiesPlaceholder')}
                  style={{ flex: '1 1 8rem' }}
                  {...form.getInputProps(`choices.${i}.properties`)}
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
              onClick={() =>
                form.insertListItem('choices', { value: '', label: '', properties: '', translations: {} })
              }
              style={{ alignSelf: 'flex-start' }}
            >
              {t('field.addChoice')}
            </Button>
          </Stack>
        ) : null}
        <LogicSection form={form} fieldNames={props.fieldNames} />
        {props.otherLanguages.map((lang) => (
          <TranslationSection key={lang} form={form} lang={lang} />
        ))}
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

/** The editor's form state: the values, checked by fieldFormErrors when saved. */
function useFieldForm(initialValues: FieldFormValues) {
  const { t } = useTranslation('formBuilder');
  return useForm<FieldFormValues>({ initialValues, validate: (v) => fieldFormErrors(v, (k) => t(k)) });
}
type Form = ReturnType<typeof useFieldForm>;

/**
 * The logic of the form model for this type (form-model.md): relevance for all; constraint,
 * required-if, default and read-only for answered types; the calculation of `calculate`;
 * choice_filter for selects; the repeat's count or bounds; the appearance from the documented set.
 */
function LogicSection({ form, fieldNames }: { form: Form; fieldNames: readonly string[] }) {
  const { t } = useTranslation('formBuilder');
  const v = form.values;
  const expr = (
    key: 'relevant' | 'constraint' | 'required_if' | 'calculation' | 'choice_filter' | 'repeat_count',
  ) => ({
    label: t(`logic.${key}`),
    description: t(`logic.${key}Hint`),
    value: v[key],
    onChange: (x: string) => form.setFieldValue(key, x),
    error: form.errors[key],
    fields: fieldNames,
  });
  const appearances = APPEARANCES[v.type] ?? [];
  return (
    <Stack gap="xs" component="fieldset" m={0} p={0} style={{ border: 0 }}>
      <Text component="legend" fw={600} size="sm" mb={4}>
        {t('logic.title')}
      </Text>
      {v.type === 'calculate' ? <ExpressionInput {...expr('calculation')} /> : null}
      <ExpressionInput {...expr('relevant')} />
      {isAnswered(v.type) ? (
        <>
          <ExpressionInput {...expr('constraint')} />
          <TextInput label={t('logic.constraint_message')} {...form.getInputProps('constraint_message')} />
          {!v.required ? <ExpressionInput {...expr('required_if')} /> : null}
          <TextInput label={t('logic.required_message')} {...form.getInputProps('required_message')} />
          <TextInput
            label={t('logic.default')}
            description={t('logic.defaultHint')}
            {...form.getInputProps('default')}
          />
          <Checkbox label={t('logic.read_only')} {...form.getInputProps('read_only', { type: 'checkbox' })} />
        </>
      ) : null}
      {isSelect(v.type) ? <ExpressionInput {...expr('choice_filter')} /> : null}
      {v.type === 'repeat' ? (
        <>
          <ExpressionInput {...expr('repeat_count')} />
          {!v.repeat_count.trim() ? (
            <SimpleGrid cols={2}>
              <TextInput
                type="number"
                min={0}
                label={t('logic.min_repeats')}
                {...form.getInputProps('min_repeats')}
              />
              <TextInput
                type="number"
                min={0}
                label={t('logic.max_repeats')}
                {...form.getInputProps('max_repeats')}
              />
            </SimpleGrid>
          ) : null}
        </>
      ) : null}
      {appearances.length ? (
        <NativeSelect
          label={t('logic.appearance')}
          data={[
            { value: '', label: t('logic.appearanceNone') },
            ...appearances.map((a) => ({ value: a, label: t(`appearances.${a}`) })),
          ]}
          {...form.getInputProps('appearance')}
        />
      ) : null}
    </Stack>
  );
}

/** The texts of one other language, beside the default language's (blank: the default's is shown). */
function TranslationSection({ form, lang }: { form: Form; lang: string }) {
  const { t, i18n } = useTranslation('formBuilder');
  const name = languageName(lang, i18n.language);
  const v = form.values;
  const box = (key: 'label' | 'hint' | 'constraint_message' | 'required_message') => (
    <TextInput
      label={t(`translations.${key}`, { language: name })}
      lang={lang}
      placeholder={t('translations.fallback')}
      {...form.getInputProps(`translations.${lang}.${key}`)}
    />
  );
  return (
    <Stack gap="xs" component="fieldset" m={0} p={0} style={{ border: 0 }}>
      <Text component="legend" fw={600} size="sm" mb={4}>
        {t('translations.title', { language: name })}
      </Text>
      {box('label')}
      {v.hint.trim() ? box('hint') : null}
      {v.constraint_message.trim() ? box('constraint_message') : null}
      {v.required_message.trim() ? box('required_message') : null}
      {isSelect(v.type)
        ? v.choices.map((c, i) => (
            <TextInput
              key={i}
              lang={lang}
              label={t('translations.choice', { language: name, label: c.label || i + 1 })}
              placeholder={t('translations.fallback')}
              {...form.getInputProps(`choices.${i}.translations.${lang}`)}
            />
          ))
        : null}
    </Stack>
  );
}

/** A language's name in the user's language ("French", "français"...), the code when unknown. */
export function languageName(code: string, inLanguage: string): string {
  try {
    return new Intl.DisplayNames([inLanguage], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
