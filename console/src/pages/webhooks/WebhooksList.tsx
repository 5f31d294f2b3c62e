import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { SecretNotice } from './SecretNotice.tsx';
import { WebhookCard } from './WebhookCard.tsx';
import { WebhookFormModal, type ProjectChoice } from './WebhookFormModal.tsx';
import { WEBHOOK_CAP, type Webhook, type WebhookApi, type WebhookWithSecret } from './types.ts';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRotateSecret,
  useUpdateWebhook,
  useWebhooks,
} from './use-webhooks.ts';

/** How long a rotated secret keeps signing (`WEBHOOK_SECRET_OVERLAP_HOURS`' default). */
const OVERLAP_HOURS = 24;

/**
 * A scope's subscriptions with everything done to them: add (the secret shown once), edit,
 * turn off or on, new secret (after a dialog explaining the overlap), delete (after a
 * confirmation), send a test. Each refusal shows next to its action: the cap in the add dialog.
 */
export function WebhooksList(props: {
  api: WebhookApi;
  basePath: string;
  /** Area A: the workspace's projects (the form offers them; the cards name them). */
  projects?: ProjectChoice[];
}) {
  const { t } = useTranslation('webhooks');
  const { api } = props;
  const list = useWebhooks(api);
  const create = useCreateWebhook(api);
  const update = useUpdateWebhook(api);
  const rotate = useRotateSecret(api);
  const remove = useDeleteWebhook(api);
  const [form, setForm] = useState<{ webhook: Webhook | null } | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [secret, setSecret] = useState<{ made: WebhookWithSecret; rotated: boolean } | null>(null);
  const projectNames = props.projects
    ? new Map(props.projects.map((p) => [Number(p.value), p.label]))
    : undefined;

  const closeForm = () => {
    setForm(null);
    create.reset();
    update.reset();
  };
  const closeRotate = () => {
    setRotating(null);
    rotate.reset();
  };
  const closeDelete = () => {
    setDeleting(null);
    remove.reset();
  };
  const editing = form?.webhook ?? null;
  const formMutation = editing ? update : create;

  if (list.isPending) return <PageLoader />;
  if (list.error) return <ProblemAlert error={list.error} />;
  const hooks = list.data;
  return (
    <Stack gap="md">
      {secret ? <SecretNotice {...secret} onDone={() => setSecret(null)} /> : null}
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed">
          {t(projectNames ? 'countWorkspace' : 'count', { count: hooks.length, max: WEBHOOK_CAP })}
        </Text>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setForm({ webhook: null })}>
          {t('add')}
        </Button>
      </Group>
      {hooks.length === 0 ? (
        <Stack
          gap={4}
          p="lg"
          style={{ border: '1px dashed var(--mantine-color-default-border)', borderRadius: 8 }}
        >
          <Text fw={600}>{t('empty.title')}</Text>
          <Text size="sm">{t('empty.text')}</Text>
        </Stack>
      ) : (
        <Stack gap="sm" component="section" aria-label={t('listLabel')}>
          {hooks.map((w) => (
            <WebhookCard
              key={w.id}
              api={api}
              webhook={w}
              basePath={props.basePath}
              {...(projectNames ? { projectNames } : {})}
              onEdit={() => setForm({ webhook: w })}
              onRotate={() => setRotating(w)}
              onDelete={() => setDeleting(w)}
            />
          ))}
        </Stack>
      )}
      <WebhookFormModal
        opened={form !== null}
        webhook={editing}
        kinds={api.kinds}
        {...(props.projects ? { projects: props.projects } : {})}
        pending={formMutation.isPending}
        error={formMutation.error}
        onSubmit={(body) =>
          editing
            ? update.mutate({ id: editing.id, body }, { onSuccess: closeForm })
            : create.mutate(body, {
                onSuccess: (made) => {
                  setSecret({ made, rotated: false });
                  closeForm();
                },
              })
        }
        onClose={closeForm}
      />
      <ConfirmDialog
        opened={rotating !== null}
        title={t('rotate.title')}
        message={t('rotate.text', { hours: OVERLAP_HOURS })}
        confirmLabel={t('rotate.confirm')}
        cancelLabel={t('rotate.cancel')}
        closeLabel={t('rotate.close')}
        pending={rotate.isPending}
        error={rotate.error}
        onConfirm={() =>
          rotating &&
          rotate.mutate(rotating.id, {
            onSuccess: (made) => {
              setSecret({ made, rotated: true });
              closeRotate();
            },
          })
        }
        onClose={closeRotate}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('delete.title')}
        message={t('delete.text', { url: deleting?.url ?? '' })}
        confirmLabel={t('delete.confirm')}
        cancelLabel={t('delete.cancel')}
        closeLabel={t('delete.close')}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: closeDelete })}
        onClose={closeDelete}
      />
    </Stack>
  );
}
