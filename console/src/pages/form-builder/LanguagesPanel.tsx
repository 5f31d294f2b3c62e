import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { languageName } from './FieldModal.tsx';
import { untranslated } from './field-tree.ts';
import type { ModelField } from './field-form.ts';
import { useSetLanguages, type FormLanguages } from './use-form-builder.ts';

const CODE = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

/**
 * The languages of a version side by side: each with its name (Intl.DisplayNames), the default
 * one marked, and how many fields lack a text in it; a draft adds a language (a BCP 47 code; its
 * name shows as it is typed), removes one, and chooses the default. The first language added to
 * a one-language form is the one its texts are already in (the console's language is suggested).
 */
export function LanguagesPanel(props: {
  versionId: number;
  value: FormLanguages;
  fields: readonly ModelField[];
  editable: boolean;
}) {
  const { t, i18n } = useTranslation('formBuilder');
  const set = useSetLanguages();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { languages, default_language } = props.value;
  const name = (c: string) => languageName(c, i18n.language);
  const save = (body: FormLanguages) => set.mutate({ versionId: props.versionId, body });
  const add = () => {
    const c = code.trim();
    if (!CODE.test(c) || name(c) === c) return setError(t('languages.invalid'));
    if (languages.includes(c)) return setError(t('languages.duplicate'));
    setError(null);
    // A one-language form's texts are in a language too: the first code added names it, the
    // second is the translation (so adding "fr" to an English form keeps the texts as English).
    const base = languages.length ? languages : [i18n.language.split('-')[0] ?? 'en'];
    const next = base.includes(c) ? base : [...base, c];
    save({ languages: next, default_language: default_language ?? next[0] ?? null });
    setCode('');
  };
  const typedName = code.trim() && CODE.test(code.trim()) ? name(code.trim()) : '';
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="languages-heading">
      <Stack gap="xs">
        <Title order={3} size="h5" id="languages-heading">
          {t('languages.title')}
        </Title>
        {languages.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('languages.none')}
          </Text>
        ) : (
          <Group gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {languages.map((l) => {
              const missing =
                l === default_language ? 0 : props.fields.filter((f) => untranslated(f, [l]).length).length;
              return (
                <Badge
                  component="li"
                  key={l}
                  size="lg"
                  variant={l === default_language ? 'filled' : 'light'}
                  color={missing ? 'orange' : 'blue'}
                  style={{ textTransform: 'none' }}
                  rightSection={
                    props.editable && l !== default_language ? (
                      <ActionIcon
                        size="xs"
                        variant="transparent"
                        c="inherit"
                        aria-label={t('languages.remove', { language: name(l) })}
                        onClick={() => {
                          const next = languages.filter((x) => x !== l);
                          save({ languages: next, default_language: next.length ? default_language : null });
                        }}
                      >
                        <IconX size={12} aria-hidden />
                      </ActionIcon>
                    ) : null
                  }
                >
                  {name(l)} ({l})
                  {l === default_language
                    ? ` · ${t('languages.default')}`
                    : missing
                      ? ` · ${t('languages.untranslated', { count: missing })}`
                      : ` · ${t('languages.complete')}`}
                </Badge>
              );
            })}
          </Group>
        )}
        {props.editable ? (
          <Group align="flex-end" gap="xs" wrap="wrap">
            <TextInput
              label={t('languages.code')}
              description={typedName && typedName !== code.trim() ? typedName : t('languages.codeHint')}
              value={code}
              onChange={(e) => (setCode(e.currentTarget.value), setError(null))}
              onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), add())}
              error={error}
              style={{ flex: '1 1 10rem' }}
              autoComplete="off"
            />
            <Button
              variant="light"
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={add}
              loading={set.isPending}
            >
              {t('languages.add')}
            </Button>
            {languages.length > 1 ? (
              <NativeSelect
                label={t('languages.defaultLabel')}
                value={default_language ?? ''}
                data={languages.map((l) => ({ value: l, label: name(l) }))}
                onChange={(e) => save({ languages, default_language: e.currentTarget.value })}
                style={{ flex: '1 1 10rem' }}
              />
            ) : null}
          </Group>
        ) : null}
        <ProblemAlert error={set.error} />
      </Stack>
    </Paper>
  );
}
