import { useState } from 'react';
import { Button, Checkbox, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { fieldErrorsOf } from '../../components/field-errors.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { EventHeader } from '../events/EventHeader.tsx';
import { INVITE_TYPES, type InviteType } from '../invites/use-invites.ts';
import { useDeleteGate, useGates, useSaveGate, type Gate } from './use-gates.ts';

interface Draft {
  id: string | null;
  name: string;
  invite_types: InviteType[];
  scan_exits: boolean;
  allow_reentry: boolean;
}

const EMPTY: Draft = { id: null, name: '', invite_types: [], scan_exits: false, allow_reentry: false };

/**
 * The form of one gate: its name, the invite types it admits (none ticked: every type), whether
 * exits are scanned and whether re-entry is allowed (only with exits). The service's 422 shows
 * under its field (a name already used), anything else under the form.
 */
function GateForm(props: { eventId: string; draft: Draft; onDone: (saved: string | null) => void }) {
  const { t } = useTranslation(['gates', 'invites']);
  const save = useSaveGate(props.eventId);
  const [d, setD] = useState<Draft>(props.draft);
  const errors = fieldErrorsOf(save.error);
  const formId = props.draft.id ?? 'new';
  return (
    <form
      aria-labelledby={`gate-form-${formId}`}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(
          {
            id: d.id,
            body: {
              name: d.name.trim(),
              invite_types: d.invite_types,
              scan_exits: d.scan_exits,
              allow_reentry: d.scan_exits && d.allow_reentry,
            },
          },
          { onSuccess: (gate) => props.onDone(gate.name) },
        );
      }}
    >
      <Stack gap="sm" maw={560}>
        <Title order={2} size="h3" id={`gate-form-${formId}`}>
          {d.id ? t('edit', { name: props.draft.name }) : t('add')}
        </Title>
        <TextInput
          label={t('fields.name')}
          description={t('fields.nameHint')}
          required
          maxLength={100}
          value={d.name}
          onChange={(e) => setD({ ...d, name: e.currentTarget.value })}
          error={errors.name}
          data-testid="gate-name"
        />
        <Checkbox.Group
          label={t('fields.types')}
          description={t('fields.typesHint')}
          value={d.invite_types}
          onChange={(v) => setD({ ...d, invite_types: v as InviteType[] })}
          error={errors.invite_types}
        >
          <Group gap="md" mt={4}>
            {INVITE_TYPES.map((type) => (
              <Checkbox key={type} value={type} label={t(`invites:types.${type}`)} />
            ))}
          </Group>
        </Checkbox.Group>
        <Checkbox
          label={t('fields.exits')}
          description={t('fields.exitsHint')}
          checked={d.scan_exits}
          onChange={(e) => setD({ ...d, scan_exits: e.currentTarget.checked })}
          data-testid="gate-exits"
        />
        <Checkbox
          label={t('fields.reentry')}
          description={t('fields.reentryHint')}
          checked={d.scan_exits && d.allow_reentry}
          disabled={!d.scan_exits}
          onChange={(e) => setD({ ...d, allow_reentry: e.currentTarget.checked })}
          data-testid="gate-reentry"
        />
        <Group>
          <Button type="submit" loading={save.isPending} disabled={!d.name.trim()}>
            {d.id ? t('save') : t('create')}
          </Button>
          {d.id ? (
            <Button variant="default" onClick={() => props.onDone(null)}>
              {t('cancel')}
            </Button>
          ) : null}
        </Group>
        {Object.keys(errors).length ? null : <ProblemAlert error={save.error} />}
      </Stack>
    </form>
  );
}

/**
 * `/events/{event_id}/gates` (docs/events.md, "Gates"): the event's check-in lists with the
 * types each admits and whether exits and re-entry are scanned; the owner adds, edits and
 * deletes them (staff see the list: the service answers them 403 for changes).
 */
export function GatesPage() {
  const { t } = useTranslation(['gates', 'invites']);
  const eventId = useParams().eventId ?? '';
  const gates = useGates(eventId);
  const remove = useDeleteGate(eventId);
  const [editing, setEditing] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<Gate | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);

  const done = (message: string | null) => {
    setEditing(null);
    setFormKey((k) => k + 1);
    setSaid(message);
  };

  return (
    <Stack gap="lg" maw={960}>
      <EventHeader eventId={eventId} title={(name) => t('title', { name })}>
        <Text c="dimmed">{t('intro')}</Text>
      </EventHeader>
      <Text role="status" size="sm" data-testid="gates-status">
        {said ?? ''}
      </Text>
      {gates.isPending ? (
        <PageLoader />
      ) : (
        <section aria-labelledby="gates-list">
          <Title order={2} size="h3" id="gates-list" mb="sm">
            {t('list')}
          </Title>
          <ProblemAlert error={gates.error} />
          {gates.data?.length === 0 ? (
            <Text c="dimmed">{t('empty')}</Text>
          ) : gates.data ? (
            <Table.ScrollContainer minWidth={0}>
              <Table striped aria-labelledby="gates-list" data-testid="gates-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('columns.name')}</Table.Th>
                    <Table.Th scope="col">{t('columns.types')}</Table.Th>
                    <Table.Th scope="col">{t('columns.exits')}</Table.Th>
                    <Table.Th scope="col">{t('columns.reentry')}</Table.Th>
                    <Table.Th scope="col">{t('columns.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {gates.data.map((g) => (
                    <Table.Tr key={g.id}>
                      <Table.Th scope="row" fw={500}>
                        {g.name}
                      </Table.Th>
                      <Table.Td>
                        {g.invite_types.length
                          ? g.invite_types.map((type) => t(`invites:types.${type}`)).join(', ')
                          : t('allTypes')}
                      </Table.Td>
                      <Table.Td>{g.scan_exits ? t('yes') : t('no')}</Table.Td>
                      <Table.Td>{g.allow_reentry ? t('yes') : t('no')}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="wrap">
                          <Button
                            size="xs"
                            variant="light"
                            aria-label={t('edit', { name: g.name })}
                            onClick={() =>
                              setEditing({
                                id: g.id,
                                name: g.name,
                                invite_types: g.invite_types as InviteType[],
                                scan_exits: g.scan_exits,
                                allow_reentry: g.allow_reentry,
                              })
                            }
                          >
                            {t('editShort')}
                          </Button>
                          <Button
                            size="xs"
                            variant="light"
                            color="red"
                            aria-label={t('delete', { name: g.name })}
                            onClick={() => setDeleting(g)}
                          >
                            {t('deleteShort')}
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : null}
        </section>
      )}
      <GateForm
        key={editing ? `edit-${editing.id}` : `new-${formKey}`}
        eventId={eventId}
        draft={editing ?? EMPTY}
        onDone={(name) => done(name ? t('saved', { name }) : null)}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('delete', { name: deleting?.name ?? '' })}
        message={t('confirmDelete', { name: deleting?.name ?? '' })}
        confirmLabel={t('delete', { name: deleting?.name ?? '' })}
        confirmColor="red"
        cancelLabel={t('cancel')}
        closeLabel={t('cancel')}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() =>
          remove.mutate(deleting!, {
            onSuccess: () => {
              setSaid(t('deleted', { name: deleting?.name ?? '' }));
              setDeleting(null);
            },
          })
        }
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
      />
    </Stack>
  );
}
