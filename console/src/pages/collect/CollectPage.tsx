import { useEffect } from 'react';
import { Alert, Anchor, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { ApiError } from '../../api/problem.ts';
import { fetchMe, ME_KEY } from '../../auth/session.ts';
import { signInPathFor } from '../../auth/sign-in-path.ts';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ProblemAlert } from '../../components/ProblemAlert.tsx';
import { idParam } from '../collection/use-collection.ts';
import { CollectForm } from './CollectForm.tsx';
import { registerCollectWorker } from './register-worker.ts';
import { useCollectForm } from './use-collect-form.ts';
import { useOnline } from '../../components/use-online.ts';

const SIGNED_IN = 'fieldhouse.collect.signedIn';

/**
 * Whether the collector is signed in: `GET /api/v1/me`, remembered in this browser so that a
 * reload without network still sends the queue the right way once the network is back.
 */
function useSignedIn(): boolean | undefined {
  const me = useQuery({ queryKey: ME_KEY, queryFn: fetchMe, retry: false, meta: { signInOn401: false } });
  const known = me.data === undefined ? undefined : me.data !== null;
  useEffect(() => {
    if (known !== undefined) localStorage.setItem(SIGNED_IN, String(known));
  }, [known]);
  return known ?? (me.isError ? localStorage.getItem(SIGNED_IN) === 'true' : undefined);
}

/**
 * `/f/{project_id}`: the collector's web form. It shows the project's published form version
 * to those the project admits (its members, or anyone signed in, or anyone for public
 * projects), works offline once opened (a service worker keeps the app, IndexedDB the form, the
 * drafts and the queue of submissions), and sends the queue when the network is there.
 */
export function CollectPage() {
  const { t } = useTranslation('collectPage');
  const location = useLocation();
  const projectId = idParam(useParams().projectId);
  const form = useCollectForm(projectId);
  const signedIn = useSignedIn();
  useEffect(() => registerCollectWorker(), []);
  const online = useOnline();

  if (projectId === undefined) return <ProblemAlert error={new Error(t('badAddress'))} />;
  if (form.isPending || signedIn === undefined) return <PageLoader />;
  if (form.error) {
    const status = form.error instanceof ApiError ? form.error.status : 0;
    return (
      <Stack gap="sm">
        <Title order={1}>{t('unavailable')}</Title>
        {status === 401 ? (
          <Text>
            {t('signInFirst')}{' '}
            <Anchor component={Link} to={signInPathFor(location)} underline="always">
              {t('signIn')}
            </Anchor>
          </Text>
        ) : status === 404 ? (
          <Text>{t('notFound')}</Text>
        ) : (
          <ProblemAlert error={form.error} />
        )}
      </Stack>
    );
  }
  const { project, version } = form.data;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={1}>{project.name}</Title>
        <Badge color={online ? 'green' : 'gray'} variant="light" role="status">
          {online ? t('online') : t('offline')}
        </Badge>
      </Group>
      {form.data.offline ? (
        <Alert variant="light" color="gray">
          {t('cachedForm')}
        </Alert>
      ) : null}
      {project.description ? <Text>{project.description}</Text> : null}
      {!project.is_published ? (
        <Alert variant="light" color="orange" title={t('notCollecting')}>
          {t('notCollectingBody')}
        </Alert>
      ) : null}
      <CollectForm
        key={version?.id}
        project={project}
        version={version}
        collecting={project.is_published && version !== null}
        signedIn={signedIn}
      />
      {!signedIn ? (
        <Text size="sm" c="dimmed">
          {t('anonymous')}{' '}
          <Anchor component={Link} to={signInPathFor(location)} underline="always">
            {t('signIn')}
          </Anchor>
        </Text>
      ) : null}
    </Stack>
  );
}
