import { Alert, Button, FileButton, Group, List, Stack, Text } from '@mantine/core';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/problem.ts';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { useImportXlsForm } from './use-form-builder.ts';

/** One refusal of an XLSForm as the service lists it (`xlsform_errors`, docs/collection.md "XLSForm"). */
interface XlsFormRefusal {
  key: string;
  sheet: string | null;
  row: number | null;
  column: string | null;
  reason: string;
  values: Record<string, string | number>;
}

/** The refusals of a 422 `xlsform_invalid`, or null for any other error. */
function refusalsOf(error: unknown): XlsFormRefusal[] | null {
  if (!(error instanceof ApiError) || error.problem.code !== 'xlsform_invalid') return null;
  const list = error.problem.xlsform_errors;
  return Array.isArray(list) ? (list as XlsFormRefusal[]) : null;
}

/**
 * The form page's XLSForm actions (issue 35): "Upload an XLSForm" creates a new draft version
 * from an `.xlsx` workbook (`POST /projects/{id}/versions` multipart, part `xlsform`) and shows
 * it; a workbook that cannot be used is listed refusal by refusal next to the button, each by
 * sheet, row and column with its reason in the user's language (never the service's sentence).
 * "Download as XLSForm" and "Download as XForm" are links to the chosen version's files.
 */
export function XlsFormPanel({
  projectId,
  versionId,
  mayEdit,
  onCreated,
}: {
  projectId: number;
  versionId: number | undefined;
  mayEdit: boolean;
  onCreated: (versionId: number, number: number) => void;
}) {
  const { t } = useTranslation('formBuilder');
  const upload = useImportXlsForm();
  const refusals = refusalsOf(upload.error);
  const where = (r: XlsFormRefusal) =>
    r.sheet === null
      ? t('xlsform.where.file')
      : r.row === null
        ? t('xlsform.where.sheet', { sheet: r.sheet })
        : r.column === null
          ? t('xlsform.where.row', { sheet: r.sheet, row: r.row })
          : t('xlsform.where.cell', { sheet: r.sheet, row: r.row, column: r.column });
  const why = (r: XlsFormRefusal) =>
    t([`xlsform.reasons.${r.reason}`, 'xlsform.reasons.invalid'], { ...r.values });

  return (
    <Stack gap="xs" component="section" aria-labelledby="xlsform-heading">
      <Text id="xlsform-heading" fw={600} size="sm">
        {t('xlsform.title')}
      </Text>
      <Group gap="xs" wrap="wrap">
        {mayEdit ? (
          <FileButton
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(file) =>
              file && upload.mutate({ projectId, file }, { onSuccess: (v) => onCreated(v.id, v.number) })
            }
          >
            {(props) => (
              <Button
                {...props}
                variant="light"
                leftSection={<IconUpload size={16} aria-hidden />}
                loading={upload.isPending}
                aria-describedby="xlsform-help"
              >
                {t('xlsform.upload')}
              </Button>
            )}
          </FileButton>
        ) : null}
        {versionId ? (
          <>
            <Button
              component="a"
              variant="default"
              href={`/api/v1/versions/${versionId}/xlsform`}
              download
              leftSection={<IconDownload size={16} aria-hidden />}
            >
              {t('xlsform.download')}
            </Button>
            <Button
              component="a"
              variant="default"
              href={`/api/v1/versions/${versionId}/xform`}
              download
              leftSection={<IconDownload size={16} aria-hidden />}
            >
              {t('xlsform.downloadXform')}
            </Button>
          </>
        ) : null}
      </Group>
      {mayEdit ? (
        <Text size="xs" c="dimmed" id="xlsform-help">
          {t('xlsform.help')}
        </Text>
      ) : null}
      {upload.isSuccess ? (
        <Text size="sm" role="status">
          {t('xlsform.created', { number: upload.data.number, count: upload.data.field_count ?? 0 })}
        </Text>
      ) : null}
      {refusals ? (
        <Alert
          color="red"
          variant="light"
          role="alert"
          title={t('xlsform.refused', { count: refusals.length })}
        >
          <List size="sm" spacing={4} data-testid="xlsform-refusals">
            {refusals.map((r, i) => (
              <List.Item key={`${r.key}-${i}`}>
                <Text span fw={600} size="sm">
                  {where(r)}
                </Text>
                {t('xlsform.separator')}
                {why(r)}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : (
        <ProblemAlert error={upload.error} />
      )}
    </Stack>
  );
}
