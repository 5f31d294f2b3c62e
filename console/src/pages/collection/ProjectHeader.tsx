import type { ReactNode } from 'react';
import { Anchor, Badge, Breadcrumbs, Button, Group, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { can } from './roles.ts';
import type { Project } from './types.ts';
import { useWorkspace } from './use-collection.ts';
import { WebFormShare } from './WebFormShare.tsx';

/** The pages of a project, in the order of its navigation (app users: for those who manage the project). */
const TABS = ['form', 'submissions', 'map', 'exports', 'analyses', 'app-users'] as const;

/**
 * The head of every project page: the way back to its workspace (named, once its name is read;
 * "Workspace" until then or for a caller who cannot read it), the project's name and
 * publication state, and the project's pages (a `nav` of links, the current one marked with
 * `aria-current`; it wraps on a phone). `actions` go at the right of the title.
 */
export function ProjectHeader({ project, actions }: { project: Project; actions?: ReactNode }) {
  const { t } = useTranslation('collection');
  const { pathname } = useLocation();
  const workspace = useWorkspace(project.workspace_id);
  const manages = can(workspace.data?.role, 'project.manage');
  return (
    <Stack gap="sm">
      <Breadcrumbs>
        <Anchor component={Link} to="/workspaces">
          {t('workspaces.title')}
        </Anchor>
        <Anchor component={Link} to={`/workspaces/${project.workspace_id}`}>
          {workspace.data?.name ?? t('project.workspace')}
        </Anchor>
      </Breadcrumbs>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={1}>{project.name}</Title>
          <Badge color={project.is_published ? 'green' : 'gray'} variant="light">
            {project.is_published ? t('project.published') : t('project.unpublished')}
          </Badge>
        </Group>
        {actions}
      </Group>
      <Group component="nav" aria-label={t('project.pages')} gap={4} wrap="wrap">
        {TABS.map((tab) => {
          if (tab === 'app-users' && !manages) return null;
          const to = `/projects/${project.id}/${tab}`;
          const current = pathname.startsWith(to);
          return (
            <Button
              key={tab}
              component={Link}
              to={to}
              size="compact-md"
              variant={current ? 'filled' : 'subtle'}
              aria-current={current ? 'page' : undefined}
            >
              {t(`project.tabs.${tab}`)}
            </Button>
          );
        })}
        {project.is_published ? (
          <>
            <Button component={Link} to={`/f/${project.id}`} size="compact-md" variant="subtle">
              {t('project.tabs.collect')}
            </Button>
            <WebFormShare project={project} />
          </>
        ) : null}
      </Group>
    </Stack>
  );
}
