import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, collectionApi } from '../../api/client.ts';
import type { operations } from '../../api/generated/collection.ts';
import { COLLECTION } from '../collection/use-collection.ts';

type Ops = operations;
/** The body of `POST /versions/{id}/fields`: `{name, label, type, required?, choices?, constraints?, position?}`. */
export type FieldInput = Ops['addField']['requestBody']['content']['application/json'];
/** The publication settings body of `POST /projects/{id}/publish` (spec 2.1). */
export type PublicationInput = NonNullable<
  Ops['publishProject']['requestBody']
>['content']['application/json'];

/** Every change to a form refreshes area A's queries (versions, fields, the project). */
function useFormMutation<V, R>(mutationFn: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: COLLECTION }) });
}

/**
 * `POST /api/v1/projects/{id}/versions {copy_last_published}`: a new draft numbered after the
 * last; with `copy: true` it starts with the last published version's fields (same uuids).
 * 422 when there is nothing to copy.
 */
export const useCreateVersion = () =>
  useFormMutation(
    async ({ projectId, copy }: { projectId: number; copy: boolean }) =>
      (
        await call(
          collectionApi.POST('/api/v1/projects/{project_id}/versions', {
            params: { path: { project_id: String(projectId) } },
            body: { copy_last_published: copy },
          }),
        )
      ).data,
  );

/**
 * `POST /api/v1/projects/{id}/versions` as `multipart/form-data` with the workbook in the part
 * `xlsform` (issue 35): a new draft version from an XLSForm. A workbook that cannot be used is a
 * 422 `xlsform_invalid` whose `xlsform_errors` name each refused cell (docs/collection.md, "XLSForm").
 */
export const useImportXlsForm = () =>
  useFormMutation(async ({ projectId, file }: { projectId: number; file: File }) => {
    const form = new FormData();
    form.append('xlsform', file);
    return (
      await call(
        collectionApi.POST('/api/v1/projects/{project_id}/versions', {
          params: { path: { project_id: String(projectId) } },
          // openapi-fetch sends FormData as it is; the browser sets the multipart boundary.
          body: form as never,
        }),
      )
    ).data;
  });

/** `POST /api/v1/versions/{id}/fields` (drafts only; 409 `version_frozen` once published, 422 `errors`). */
export const useAddField = () =>
  useFormMutation(({ versionId, body }: { versionId: number; body: FieldInput }) =>
    call(
      collectionApi.POST('/api/v1/versions/{version_id}/fields', {
        params: { path: { version_id: String(versionId) } },
        body,
      }),
    ),
  );

/** `PUT /api/v1/versions/{id}/fields/{field_id}` with the keys to change (a new `position` reorders). */
export const useUpdateField = () =>
  useFormMutation(
    ({ versionId, fieldId, body }: { versionId: number; fieldId: number; body: Partial<FieldInput> }) =>
      call(
        collectionApi.PUT('/api/v1/versions/{version_id}/fields/{field_id}', {
          params: { path: { version_id: String(versionId), field_id: String(fieldId) } },
          body,
        }),
      ),
  );

/** `DELETE /api/v1/versions/{id}/fields/{field_id}` (drafts only). */
export const useDeleteField = () =>
  useFormMutation(({ versionId, fieldId }: { versionId: number; fieldId: number }) =>
    call(
      collectionApi.DELETE('/api/v1/versions/{version_id}/fields/{field_id}', {
        params: { path: { version_id: String(versionId), field_id: String(fieldId) } },
      }),
    ),
  );

/** `POST /api/v1/versions/{id}/publish`: freezes the version and makes it the form collectors get (422 without fields). */
export const usePublishVersion = () =>
  useFormMutation((versionId: number) =>
    call(
      collectionApi.POST('/api/v1/versions/{version_id}/publish', {
        params: { path: { version_id: String(versionId) } },
      }),
    ),
  );

/**
 * `POST /api/v1/projects/{id}/publish` with the publication settings (keys not sent keep their
 * value) or `POST .../unpublish`. 422 `no_published_version`, `errors` per setting.
 */
export const usePublishProject = () =>
  useFormMutation(({ projectId, body }: { projectId: number; body: PublicationInput | null }) =>
    body
      ? call(
          collectionApi.POST('/api/v1/projects/{project_id}/publish', {
            params: { path: { project_id: String(projectId) } },
            body,
          }),
        )
      : call(
          collectionApi.POST('/api/v1/projects/{project_id}/unpublish', {
            params: { path: { project_id: String(projectId) } },
          }),
        ),
  );

/** A version's languages (form-model.md): BCP 47 codes and the default one; empty for a one-language form. */
type VersionLanguages = Ops['updateFormVersion']['requestBody']['content']['application/json'];

/** A version's languages as the builder reads them: `default_language` null for a one-language form. */
export interface FormLanguages {
  languages: string[];
  default_language: string | null;
}

/** The languages of a version as the API answers them (`languages: []`, `default_language: null` when unset). */
export function versionLanguages(
  version: { languages?: string[]; default_language?: string | null } | undefined,
): FormLanguages {
  return { languages: version?.languages ?? [], default_language: version?.default_language ?? null };
}

/**
 * `PUT /api/v1/versions/{id}` `{languages, default_language}` (drafts only; 409 `version_frozen`,
 * 422 `errors.languages` / `errors.default_language`).
 */
export const useSetLanguages = () =>
  useFormMutation(({ versionId, body }: { versionId: number; body: VersionLanguages }) =>
    call(
      collectionApi.PUT('/api/v1/versions/{version_id}', {
        params: { path: { version_id: String(versionId) } },
        body,
      }),
    ),
  );
