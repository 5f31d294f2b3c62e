import type { Request } from 'express';
import { pathId, readMultipartBody } from '@fieldhouse/http';
import { problems } from '../domain/problems.ts';
import type { VersionCreate } from '../domain/versions.ts';
import { versionAsXlsForm } from '../domain/xlsform-export.ts';
import { xlsformCommand } from '../domain/xlsform-import.ts';
import { issue, XLSFORM_MAX_BYTES } from '../domain/xlsform-workbook.ts';
import { route } from './declare.ts';
import { versionParams } from './version-schemas.ts';

/** The media type of `.xlsx` workbooks. */
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `multipart/form-data` of `POST /projects/{project_id}/versions` with an XLSForm (issue 35). */
export const xlsformUploadContent = {
  type: 'object',
  required: ['xlsform'],
  properties: {
    xlsform: {
      type: 'string',
      format: 'binary',
      description: `The XLSForm workbook (.xlsx, at most ${XLSFORM_MAX_BYTES} bytes)`,
    },
  },
};

/**
 * Reads an XLSForm upload (`multipart/form-data`, the `.xlsx` in the part `xlsform`) into the
 * command of the version create (domain/xlsform-import.ts): called by the use case after its
 * access check.
 * @throws 413 `xlsform_too_large` (over {@link XLSFORM_MAX_BYTES}, or too many parts); 400 a
 *   malformed body or another file part; 422 `xlsform_invalid` without an `xlsform` part, or for
 *   a workbook that cannot be taken.
 */
export async function readXlsFormUpload(req: Request): Promise<VersionCreate> {
  const tooLarge = () => problems.xlsformTooLarge({ maxBytes: XLSFORM_MAX_BYTES, unpacked: false });
  const { files } = await readMultipartBody(req, {
    limits: { fileBytes: XLSFORM_MAX_BYTES, files: 1, fields: 5, fieldBytes: 1024, parts: 6 },
    fileFields: ['xlsform'],
    fileTooLarge: tooLarge,
    tooManyParts: tooLarge,
  });
  const file = files.find((f) => f.field === 'xlsform');
  if (!file)
    throw problems.xlsformInvalid({
      issues: [issue({}, 'missing_file', 'Send the XLSForm workbook in a part named xlsform.')],
    });
  return xlsformCommand(file.data);
}

/** `GET /versions/{version_id}/xlsform` (issue 35; docs/collection.md, "XLSForm"). */
export const xlsformRoutes = [
  route({
    method: 'get',
    path: '/api/v1/versions/{version_id}/xlsform',
    operationId: 'getVersionXlsForm',
    summary: 'The version as an XLSForm workbook (.xlsx)',
    description:
      'The `survey`, `choices` and `settings` sheets of the version, which `POST /api/v1/projects/{project_id}/versions` ' +
      'with the file in the multipart part `xlsform` imports to the same form (docs/collection.md, "XLSForm"). ' +
      'Readable by whoever may read the version.',
    tags: ['Form versions'],
    params: versionParams,
    access: 'optional',
    responses: {
      200: {
        description: 'The workbook, as an attachment',
        content: { [XLSX_TYPE]: null },
      },
    },
    problems: { 404: 'Unknown, or the caller is not a member' },
    handler: async ({ params }, ctx, req, res) => {
      const { bytes, fileName } = await versionAsXlsForm(
        ctx,
        req.caller,
        pathId(params.version_id, 'versionId'),
      );
      res
        .status(200)
        .set({
          'Content-Type': XLSX_TYPE,
          'Content-Disposition': `attachment; filename="${fileName}"`,
          'Cache-Control': 'private, no-store',
          'Content-Length': String(bytes.length),
        })
        .end(bytes);
    },
  }),
];
