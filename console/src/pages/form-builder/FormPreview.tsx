import { useCallback, useMemo, useState } from 'react';
import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import {
  compileForm,
  formTree,
  type CompiledForm,
  type FlatField,
  type FormNode,
} from '@fieldhouse/form-logic';
import { useTranslation } from 'react-i18next';
import { FormLanguageSelect } from '../../components/form-logic/FormLanguageSelect.tsx';
import { LogicFields } from '../../components/form-logic/LogicFields.tsx';
import { LogicStore } from '../../components/form-logic/logic-store.ts';
import type { Answer } from '../collect/answers.ts';
import { shiftDrafts, syncRepeatCounts, typedValue } from '../collect/logic-kit.ts';
import type { ModelField } from './field-form.ts';
import type { FormLanguages } from './use-form-builder.ts';

/**
 * The form as a collector will see it, evaluated live by the form engine (@fieldhouse/form-logic,
 * the same one the service checks submissions with) and shown by the web form's renderer:
 * questions appear and disappear with their `relevant`, calculations update, choices narrow,
 * constraint messages show, repeats take instances; the answers typed here are only the preview's. A language switch shows the texts of
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
        {compiled ? <LivePreview form={compiled} languages={languages} /> : null}
      </Stack>
    </Paper>
  );
}

/**
 * The live form: the web form's own renderer (components/form-logic/LogicFields) over a session
 * of the compiled version; answers typed here are only the preview's.
 */
function LivePreview({ form, languages }: { form: CompiledForm; languages: FormLanguages }) {
  const { t, i18n } = useTranslation('formBuilder');
  const store = useMemo(() => {
    const session = form.session(form.initialAnswers());
    syncRepeatCounts(form, session);
    return new LogicStore(session);
  }, [form]);
  const [lang, setLang] = useState<string | null>(languages.default_language);
  const onChange = useCallback(
    (path: string, node: FormNode, draft: Answer) => {
      store.answer(path, node, draft, typedValue(node, draft), () => syncRepeatCounts(form, store.session));
    },
    [form, store],
  );
  const onAddInstance = useCallback(
    (path: string) => {
      store.session.addInstance(path);
      store.changedAll();
    },
    [store],
  );
  const onRemoveInstance = useCallback(
    (path: string, index: number) => {
      store.session.removeInstance(path, index);
      store.rekey((byPath) => shiftDrafts(byPath, path, index));
      store.changedAll();
    },
    [store],
  );
  return (
    <Stack gap="md">
      {languages.languages.length > 1 ? (
        <FormLanguageSelect
          label={t('preview.language')}
          languages={languages.languages}
          value={lang}
          uiLanguage={i18n.language}
          onChange={setLang}
        />
      ) : null}
      <div lang={lang ?? undefined}>
        <Stack gap="md">
          <LogicFields
            form={form}
            store={store}
            lang={lang}
            onChange={onChange}
            onAddInstance={onAddInstance}
            onRemoveInstance={onRemoveInstance}
          />
        </Stack>
      </div>
    </Stack>
  );
}
