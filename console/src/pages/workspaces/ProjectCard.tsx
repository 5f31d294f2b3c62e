import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { can } from '../collection/roles.ts';
import type { Project, Role } from '../collection/types.ts';
import { useProjectStats } from '../collection/use-collection.ts';

/**
 * One project of a workspace: name, publication state, its number of submissions (for the
 * roles that may see statistics), and the actions the caller's role allows.
 */
export function ProjectCard(props: {
  project: Project;
  role: Role | undefined;
  onEdit: (p: Project) => void;
  onDelete: (p: Project) => void;
}) {
  const { t } = useTranslation(['workspaces', 'collection']);
  const { project, role } = props;
  const stats = useProjectStats(project.id, can(role, 'stats.view'));
  const headingId = `project-${project.id}`;
  return (
    <Card withBorder padding="md" component="article" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} size="h4" id={headingId}>
            <Anchor component={Link} to={`/projects/${project.id}/submissions`} inherit>
              {project.name}
            </Anchor>
          </Title>
          <Badge color={project.is_published ? 'green' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
            {project.is_published ? t('collection:project.published') : t('collection:project.unpublished')}
          </Badge>
        </Group>
        {project.description ? (
          <Text size="sm" c="dimmed" lineClamp={2}>
            {project.description}
          </Text>
        ) : null}
        {stats.data ? (
          <Text size="sm" data-testid="submission-count">
            {t('projects.submissions', { count: stats.data.total })}
          </Text>
        ) : null}
        <Group gap="xs" wrap="wrap">
          <Button
            component={Link}
            to={`/projects/${project.id}/form`}
            size="xs"
            variant="light"
            aria-label={t('projects.form', { name: project.name })}
          >
            {t('projects.formShort')}
          </Button>
          {can(role, 'project.manage') ? (
            <Button
              size="xs"
              variant="default"
              onClick={() => props.onEdit(project)}
              aria-label={t('projects.edit', { name: project.name })}
            >
              {t('projects.editShort')}
            </Button>
          ) : null}
          {can(role, 'project.delete') ? (
            <Button
              size="xs"
              color="red"
              variant="light"
              onClick={() => props.onDelete(project)}
              aria-label={t('projects.delete', { name: project.name })}
            >
              {t('projects.deleteShort')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}
