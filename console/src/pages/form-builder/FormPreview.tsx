import { useMemo, useState } from 'react';
import { Alert, Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import {
  compileForm,
  formTree,
  type CompiledForm,
  type FlatField,
  type FormNode,
  type FormSession,
} from '@fieldhouse/form-logic';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Field } from '../collection/types.ts';
import type { Answer } from '../collect/answers.ts';
import { FieldInput } from '../collect/FieldInput.tsx';
import { languageName } from './FieldModal.tsx';
import type { ModelField } from './field-form.ts';
import type { FormLanguages } from './use-form-builder.ts';

/** A node's texts in `lang` (its translation, else the default language's). */
function inLanguage(node: FormNode, lang: string | null): Field {
  const tr = lang ? node.translations?.[lang] : undefined;
  return {
    ...(node as unknown as Field),
    label: tr?.label || node.label || node.name,
    choices:
      node.choices?.map((c) => ({
        value: c.value,
        label: (lang && c.translations?.[lang]?.label) || c.label,
      })) ?? null,
  } as Field;
}

/**
 * The form as a collector will see it, evaluated live by the form engine (@fieldhouse/form-logic,
 * the same one the service checks submissions with): questions appear and disappear with their
 * `relevant`, calculations update, choices narrow, constraint messages show, repeats take
 * instances; the answers typed here are only the preview's. A language switch shows the texts of
 * each of the version's languages. A form whose logic does not compile yet is shown without it.
 */
export function FormPreview({ fields, languages }: { fields: ModelField[]; languages: FormLanguages }) {
  const { t } = useTranslation('formBuilder');
  const compiled = useMemo(() => {
    const tree = formTree(fields as readonly FlatField[]);
    if (!tree.ok) return null;
    const result = compileForm({ ...languages, nodes: tree.nodes });
    return result.ok ? result.form : null;
  }, [fields, languages]);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="preview-heading">
      <Stack gap="md">
        <Title order={2} size="h4" id="preview-heading">
          {t('preview.title')}
        </Title>
        {fields.length === 0 ? <Text c="dimmed">{t('preview.empty')}</Text> : null}
        {fields.length && !compiled ? (
          <Alert color="yellow" variant="light">
            {t('preview.noLogic')}
          </Alert>
        ) : null}
        {compiled ? (
          <LivePreview
            key={compiled.calculationOrder.join() + fields.length}
            form={compiled}
            languages={languages}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

function LivePreview({ form, languages }: { form: CompiledForm; languages: FormLanguages }) {
  const { t, i18n } = useTranslation('formBuilder');
  const [session] = useState<FormSession>(() => form.session(form.initialAnswers()));
  const [drafts, setDrafts] = useState<Record<string, Answer>>({});
  const [, setTick] = useState(0);
  const [lang, setLang] = useState<string | null>(languages.default_language);
  const change = (path: string, value: Answer) => {
    setDrafts((d) => ({ ...d, [path]: value }));
    session.set(path, value === '' ? null : value);
    setTick((n) => n + 1);
  };
  const instances = (path: string, add: boolean, index = 0) => {
    if (add) session.addInstance(path);
    else session.removeInstance(path, index);
    setTick((n) => n + 1);
  };
  const render = (nodes: readonly FormNode[], prefix: string) =>
    nodes.map((node) => {
      const path = prefix + node.name;
      const state = session.state.nodes[path];
      if (state && !state.relevant) return null;
      const text = inLanguage(node, lang);
      if (node.type === 'group')
        return (
          <Stack
            key={path}
            gap="sm"
            component="fieldset"
            p="sm"
            m={0}
            style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
          >
            <Text component="legend" fw={600}>
              {text.label}
            </Text>
            {render(node.children ?? [], prefix)}
          </Stack>
        );
      if (node.type === 'repeat') {
        const count = (session.answers as Record<string, unknown>)[node.name];
        const list = Array.isArray(prefix ? lookup(session.answers, path) : count)
          ? (lookup(session.answers, path) as unknown[])
          : [];
        const fixed =
          node.repeat_count !== null && node.repeat_count !== undefined && node.repeat_count !== '';
        const max = state?.repeat?.max ?? Infinity;
        return (
          <Stack
            key={path}
            gap="sm"
            component="fieldset"
            p="sm"
            m={0}
            style={{ border: '1px solid var(--mantine-color-grape-4)', borderRadius: 4 }}
          >
            <Text component="legend" fw={600}>
              {text.label}
            </Text>
            {list.map((_, i) => (
              <Stack key={i} gap="xs">
                <Group justify="space-between">
                  <Text size="sm" fw={500}>
                    {t('preview.instance', { label: text.label, n: i + 1 })}
                  </Text>
                  {!fixed ? (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={12} aria-hidden />}
                      onClick={() => instances(path, false, i)}
                    >
                      {t('preview.removeInstance', { n: i + 1 })}
                    </Button>
                  ) : null}
                </Group>
                {render(node.children ?? [], `${path}.${i}.`)}
              </Stack>
            ))}
            {!fixed && list.length < max ? (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconPlus size={14} aria-hidden />}
                onClick={() => instances(path, true)}
                style={{ alignSelf: 'flex-start' }}
              >
                {t('preview.addInstance', { label: text.label })}
              </Button>
            ) : null}
          </Stack>
        );
      }
      if (node.type === 'note')
        return (
          <Text key={path} size="sm">
            {text.label}
          </Text>
        );
      if (node.type === 'calculate')
        return (
          <Text key={path} size="sm" c="dimmed">
            {t('preview.calculated', { name: node.name, value: session.state.values[path] ?? '' })}
          </Text>
        );
      const message = state && !state.valid ? messageOf(node, lang) || t('preview.notAllowed') : undefined;
      const shown = state?.choices
        ? {
            ...text,
            choices: state.choices.map((c) => inLanguage({ ...node, choices: [c] }, lang).choices![0]!),
          }
        : text;
      return (
        <FieldInput
          key={path}
          field={{ ...shown, required: state?.required ?? node.required ?? false } as Field}
          value={drafts[path] ?? defaultDraft(lookup(session.answers, path))}
          error={message}
          disabled={state?.readOnly}
          onChange={(v) => change(path, v)}
        />
      );
    });
  return (
    <Stack gap="md">
      {languages.languages.length > 1 ? (
        <NativeSelect
          label={t('preview.language')}
          value={lang ?? ''}
          data={languages.languages.map((l) => ({ value: l, label: languageName(l, i18n.language) }))}
          onChange={(e) => setLang(e.currentTarget.value)}
        />
      ) : null}
      <div lang={lang ?? undefined}>
        <Stack gap="md">{render(form.definition.nodes, '')}</Stack>
      </div>
    </Stack>
  );
}

/** The constraint message of a node in `lang` (its translation, else the default language's). */
function messageOf(node: FormNode, lang: string | null): string {
  return (lang && node.translations?.[lang]?.constraint_message) || node.constraint_message || '';
}

/** The answer at a path (`member.2.age`) of the session's answers tree. */
function lookup(answers: unknown, path: string): unknown {
  let at: unknown = answers;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** A pre-filled answer (a default) as the input shows it. */
function defaultDraft(value: unknown): Answer {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'object') return value as Answer;
  return String(value);
}
