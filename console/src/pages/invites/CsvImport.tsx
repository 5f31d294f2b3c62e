import { useMemo, useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, NativeSelect, Radio, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import {
  checkRows,
  csvOf,
  guessColumns,
  MAX_BYTES,
  MAX_ROWS,
  parseCsv,
  TARGETS,
  type ColumnMap,
  type ParsedCsv,
} from './csv-import.ts';
import { templateUrl, useImportInvites, useSendHeldInvitations } from './use-invites.ts';

/** Rows of the preview shown at most (the counts cover them all). */
const PREVIEW_ROWS = 50;

/**
 * CSV import with a preview: the file is read and parsed in the browser (Papa Parse), its
 * columns mapped to `nom`, `email`, `type_invite` (guessed from the header, changeable), every
 * row checked as the service will; the rows with problems are listed before anything is sent.
 * "Import" sends the good rows only, then lists the service's result per row (created, or
 * failed with its reasons, e.g. an e-mail already invited), by the line of the user's file.
 */
export function CsvImport(props: { eventId: string }) {
  const { t } = useTranslation('invites');
  const [fileName, setFileName] = useState<string | null>(null);
  const [parsed, setParsed] = useState<ParsedCsv | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [map, setMap] = useState<ColumnMap>({ nom: null, email: null, type_invite: null, seats: null });
  const run = useImportInvites(props.eventId);
  const preview = useImportInvites(props.eventId);
  const sendHeld = useSendHeldInvitations(props.eventId);
  const [emails, setEmails] = useState<'now' | 'later' | ''>('');

  const rows = useMemo(
    () =>
      parsed && 'rows' in parsed && map.nom !== null && map.email !== null ? checkRows(parsed.rows, map) : [],
    [parsed, map],
  );
  const good = rows.filter((r) => Object.keys(r.problems).length === 0);
  const bad = rows.filter((r) => Object.keys(r.problems).length > 0);

  const read = async (file: File | undefined) => {
    run.reset();
    preview.reset();
    sendHeld.reset();
    setEmails('');
    setParsed(null);
    setFileError(null);
    setFileName(file?.name ?? null);
    if (!file) return;
    if (file.size > MAX_BYTES) return setFileError(t('import.errors.tooBig'));
    const result = parseCsv(await file.text());
    if ('error' in result) return setFileError(t('import.errors.unreadable', { reason: result.error }));
    if (result.rows.length === 0) return setFileError(t('import.errors.noRows'));
    if (result.rows.length > MAX_ROWS) return setFileError(t('import.errors.tooMany', { max: MAX_ROWS }));
    setParsed(result);
    setMap(guessColumns(result.header));
  };

  const header = parsed && 'header' in parsed ? parsed.header : [];
  const columnChoices = [
    { value: '', label: t('import.none') },
    ...header.map((h, i) => ({ value: String(i), label: h || t('import.column', { n: i + 1 }) })),
  ];
  /** Lines of the user's file, by the row number of the CSV sent (header = 1). */
  const lineOfSent = (row: number) => good[row - 2]?.line ?? row;

  const ready = preview.data && !preview.isPending && !run.data;
  return (
    <Stack gap="sm">
      <Text size="sm">
        {t('import.template')}{' '}
        <Anchor href={templateUrl(props.eventId, 'en')} download data-testid="template-en">
          {t('import.templateEn')}
        </Anchor>
        {' · '}
        <Anchor href={templateUrl(props.eventId, 'fr')} download data-testid="template-fr">
          {t('import.templateFr')}
        </Anchor>
      </Text>
      <div>
        <label htmlFor="invite-csv">
          <Text fw={500} size="sm">
            {t('import.file')}
          </Text>
        </label>
        <Text size="xs" c="dimmed" id="invite-csv-hint">
          {t('import.fileHint', { max: MAX_ROWS })}
        </Text>
        <input
          id="invite-csv"
          type="file"
          accept=".csv,text/csv"
          aria-describedby="invite-csv-hint"
          onChange={(e) => void read(e.currentTarget.files?.[0])}
        />
        {fileError ? (
          <Text c="red.9" size="sm" role="alert">
            {fileError}
          </Text>
        ) : null}
      </div>
      {parsed && 'rows' in parsed ? (
        <>
          <Group gap="sm" wrap="wrap" role="group" aria-label={t('import.mapping')}>
            {TARGETS.map((target) => (
              <NativeSelect
                key={target}
                label={t(`import.targets.${target}`)}
                data={target === 'nom' || target === 'email' ? columnChoices.slice(1) : columnChoices}
                value={map[target] === null ? '' : String(map[target])}
                onChange={(e) => {
                  preview.reset();
                  setMap({
                    ...map,
                    [target]: e.currentTarget.value === '' ? null : Number(e.currentTarget.value),
                  });
                }}
                error={
                  (target === 'nom' || target === 'email') && map[target] === null
                    ? t('import.errors.unmapped')
                    : undefined
                }
              />
            ))}
          </Group>
          <Text size="sm" data-testid="import-summary">
            {t('import.summary', { file: fileName, good: good.length, bad: bad.length })}
          </Text>
          {bad.length > 0 ? (
            <Table.ScrollContainer minWidth={0}>
              <Table aria-label={t('import.problems')} data-testid="import-problems">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('import.line')}</Table.Th>
                    <Table.Th scope="col">{t('fields.nom')}</Table.Th>
                    <Table.Th scope="col">{t('fields.email')}</Table.Th>
                    <Table.Th scope="col">{t('import.problem')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {bad.slice(0, PREVIEW_ROWS).map((r) => (
                    <Table.Tr key={r.line}>
                      <Table.Td>{r.line}</Table.Td>
                      <Table.Td>{r.values.nom}</Table.Td>
                      <Table.Td>{r.values.email}</Table.Td>
                      <Table.Td>
                        {Object.entries(r.problems)
                          .map(([field, why]) => t(`import.why.${field}.${why}`))
                          .join(' ')}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : null}
          <Group>
            <Button
              variant={preview.data ? 'default' : 'filled'}
              onClick={() => preview.mutate({ csv: csvOf(good), preview: true, emails: 'now' })}
              disabled={good.length === 0 || run.isSuccess}
              loading={preview.isPending}
              data-testid="import-preview-button"
            >
              {t('import.preview')}
            </Button>
          </Group>
          <ProblemAlert error={preview.error} />
          {preview.data ? (
            <section aria-labelledby="import-preview-title">
              <Text fw={600} id="import-preview-title">
                {t('import.previewTitle', { ready: preview.data.ready, failed: preview.data.failed })}
              </Text>
              <Table.ScrollContainer minWidth={0}>
                <Table aria-labelledby="import-preview-title" data-testid="import-preview">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">{t('import.line')}</Table.Th>
                      <Table.Th scope="col">{t('fields.nom')}</Table.Th>
                      <Table.Th scope="col">{t('import.targets.type_invite')}</Table.Th>
                      <Table.Th scope="col">{t('import.targets.seats')}</Table.Th>
                      <Table.Th scope="col">{t('import.willHappen')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {preview.data.results.slice(0, PREVIEW_ROWS).map((r) => (
                      <Table.Tr key={r.row}>
                        <Table.Td>{lineOfSent(r.row)}</Table.Td>
                        <Table.Td>
                          {r.status === 'ready' ? r.nom : (good[r.row - 2]?.values.nom ?? '')}
                        </Table.Td>
                        <Table.Td>{r.status === 'ready' ? t(`types.${r.type_invite}`) : ''}</Table.Td>
                        <Table.Td>{r.status === 'ready' ? r.seats : ''}</Table.Td>
                        <Table.Td>
                          {r.status === 'ready' ? (
                            <Badge color="green" variant="light">
                              {t('import.willCreate')}
                            </Badge>
                          ) : r.status === 'failed' ? (
                            <Text size="sm" c="red.9">
                              {t('import.willFail', { why: Object.values(r.errors).flat().join(' ') })}
                            </Text>
                          ) : null}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </section>
          ) : null}
          {ready ? (
            <>
              <Radio.Group
                label={t('import.emails')}
                value={emails}
                onChange={(v) => setEmails(v as 'now' | 'later')}
                required
              >
                <Stack gap={4} mt={4}>
                  <Radio value="now" label={t('import.emailsNow')} data-testid="emails-now" />
                  <Radio value="later" label={t('import.emailsLater')} data-testid="emails-later" />
                </Stack>
              </Radio.Group>
              <Group>
                <Button
                  onClick={() => emails && run.mutate({ csv: csvOf(good), preview: false, emails })}
                  disabled={preview.data!.ready === 0 || !emails || run.isSuccess}
                  loading={run.isPending}
                  data-testid="import-submit"
                >
                  {t('import.submit', { count: preview.data!.ready })}
                </Button>
              </Group>
            </>
          ) : null}
          <ProblemAlert error={run.error} />
        </>
      ) : null}
      {run.data ? (
        <Alert
          color={run.data.failed ? 'orange' : 'green'}
          variant="light"
          title={t('import.done', run.data)}
        >
          {run.data.emails === 'later' && run.data.created > 0 ? (
            <Group gap="sm" mb="sm">
              <Text size="sm" data-testid="emails-held">
                {sendHeld.data
                  ? t('import.heldSent', sendHeld.data)
                  : t('import.held', { count: run.data.created })}
              </Text>
              {sendHeld.data ? null : (
                <Button size="xs" onClick={() => sendHeld.mutate()} loading={sendHeld.isPending}>
                  {t('import.sendHeld')}
                </Button>
              )}
              <ProblemAlert error={sendHeld.error} />
            </Group>
          ) : null}
          <Table.ScrollContainer minWidth={0}>
            <Table aria-label={t('import.results')} data-testid="import-results">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('import.line')}</Table.Th>
                  <Table.Th scope="col">{t('import.result')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {run.data.results.map((r) => (
                  <Table.Tr key={r.row}>
                    <Table.Td>{lineOfSent(r.row)}</Table.Td>
                    <Table.Td>
                      {r.status === 'created' ? (
                        <Badge color="green" variant="light">
                          {t('import.created', { nom: r.nom })}
                        </Badge>
                      ) : r.status === 'failed' ? (
                        <Text size="sm" c="red.9">
                          {Object.values(r.errors).flat().join(' ')}
                        </Text>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Alert>
      ) : null}
    </Stack>
  );
}
