import { gatewayClient } from '../../test/support/users.ts';

/** A field as the collection service returns it (the parts tests use). */
interface ApiField {
  id: number;
  uuid: string;
  name: string;
  type: string;
  choices: Array<{ value: string; label: string }> | null;
}

/** What {@link createCollectionProject} made. */
export interface CollectionProject {
  workspaceId: number;
  projectId: number;
  versionId: number;
  /** The published version's fields by name. */
  fields: Record<string, ApiField>;
}

/**
 * Creates, through the gateway as the holder of `token`, a workspace with one project whose
 * form version has `fields` (bodies of `POST /versions/{id}/fields`), publishes the version and
 * the project (`publication`: the publish body, default `{}`: members may collect).
 */
export async function createCollectionProject(
  baseUrl: string,
  token: string,
  fields: Array<Record<string, unknown>>,
  publication: Record<string, unknown> = {},
  names: { workspace?: string; project?: string } = {},
): Promise<CollectionProject> {
  const api = gatewayClient(baseUrl, token);
  const workspaceId = (
    await api
      .post('/api/v1/workspaces')
      .send({ name: names.workspace ?? 'Field team' })
      .expect(201)
  ).body.data.id as number;
  const projectId = (
    await api
      .post(`/api/v1/workspaces/${workspaceId}/projects`)
      .send({ name: names.project ?? 'Water points' })
      .expect(201)
  ).body.data.id as number;
  const versionId = (await api.post(`/api/v1/projects/${projectId}/versions`).send({}).expect(201)).body.data
    .id as number;
  const made: Record<string, ApiField> = {};
  for (const field of fields) {
    const created = (await api.post(`/api/v1/versions/${versionId}/fields`).send(field).expect(201)).body
      .data as ApiField;
    made[created.name] = created;
  }
  await api.post(`/api/v1/versions/${versionId}/publish`).expect(200);
  await api.post(`/api/v1/projects/${projectId}/publish`).send(publication).expect(200);
  return { workspaceId, projectId, versionId, fields: made };
}

/**
 * Sends one submission (`POST /api/v1/projects/{id}/submissions`) with `answers` by field name;
 * resolves with its id.
 */
export async function submit(
  baseUrl: string,
  token: string,
  project: CollectionProject,
  answers: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const data = Object.entries(answers).map(([name, value]) => {
    const field = project.fields[name]!;
    return { field_uuid: field.uuid, type: field.type, value };
  });
  const res = await gatewayClient(baseUrl, token)
    .post(`/api/v1/projects/${project.projectId}/submissions`)
    .send({ form_version_id: project.versionId, data, ...extra })
    .expect(201);
  return res.body.data.id as number;
}
