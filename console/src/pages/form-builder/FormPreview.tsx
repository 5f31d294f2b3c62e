import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Field } from '../collection/types.ts';
import { FieldInput } from '../collect/FieldInput.tsx';

/**
 * The form as a collector will see it in the web form (`/f/{project_id}`): the same inputs, in
 * form order, disabled here. It follows every change to the fields at once.
 */
export function FormPreview({ fields }: { fields: Field[] }) {
  const { t } = useTranslation('formBuilder');
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="preview-heading">
      <Stack gap="md">
        <Title order={2} size="h4" id="preview-heading">
          {t('preview.title')}
        </Title>
        {fields.length === 0 ? <Text c="dimmed">{t('preview.empty')}</Text> : null}
        {fields.map((f) => (
          <FieldInput key={f.id} field={f} value={null} disabled onChange={() => undefined} />
        ))}
      </Stack>
    </Paper>
  );
}
