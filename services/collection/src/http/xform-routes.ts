import { pathId } from '@fieldhouse/http';
import { getVersionXForm } from '../domain/xform-read.ts';
import { route } from './declare.ts';
import { versionParams } from './version-schemas.ts';

/** A version as an ODK XForm (issue 35; docs/collection.md, "XForms"). */
export const xformRoutes = [
  route({
    method: 'get',
    path: '/api/v1/versions/{version_id}/xform',
    operationId: 'getFormVersionXForm',
    summary: 'The version as an ODK XForm 1.0 document',
    description:
      'The XForm ODK Collect, Enketo and ODK Web Forms load (getodk.github.io/xforms-spec): primary instance ' +
      '`<data id="fieldhouse-<project id>" version="<number>">` with `meta/instanceID`, binds, itext per language, ' +
      'body controls, groups and repeats (docs/collection.md, "XForms", has the mapping). `ETag` is the md5 of the ' +
      'document, as the OpenRosa form list’s `hash`; as an attachment `<form id>-v<number>.xml`. Published versions ' +
      'are also open to the non-members the project’s `collect_access` admits.',
    tags: ['Form versions'],
    params: versionParams,
    access: 'optional',
    responses: { 200: { description: 'The XForm', content: { 'application/xml': null } } },
    problems: {
      401: 'Anonymous, and the form is not open to the public',
      404: 'Unknown, or the caller may not read it',
    },
    handler: async ({ params }, ctx, req, res) => {
      const form = await getVersionXForm(ctx, req.caller, pathId(params.version_id, 'versionId'));
      res
        .type('application/xml; charset=utf-8')
        .set('ETag', `"${form.hash.slice('md5:'.length)}"`)
        .set('Content-Disposition', `attachment; filename="${form.formId}-v${form.version}.xml"`)
        .set('Cache-Control', 'private, no-cache')
        .send(form.xml);
    },
  }),
];
