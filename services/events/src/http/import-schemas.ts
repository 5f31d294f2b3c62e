import { Joi } from '@fieldhouse/config';

/** Request bodies of the CSV import (JSON Schema; the handler reads them). */
export const importRequestContent = {
  'text/csv': {
    type: 'string',
    description: 'Columns name/nom, email/courriel, type/type_invite and seats/places (optional); `,` or `;`',
  },
  'multipart/form-data': {
    type: 'object',
    required: ['file'],
    properties: { file: { type: 'string', contentMediaType: 'text/csv' } },
  },
};

/** `?preview=true|false&emails=now|later` of the import. */
export const importQuerySchema = Joi.object<{ preview?: boolean; emails?: 'now' | 'later' }>({
  preview: Joi.boolean().description('true: store nothing, say per row what an import would do'),
  emails: Joi.string()
    .valid('now', 'later')
    .description('now (default): each invitation e-mail is queued with its invite; later: held back'),
});

/** `?lang=en|fr` of the template. */
export const templateQuerySchema = Joi.object<{ lang: 'en' | 'fr' }>({
  lang: Joi.string().valid('en', 'fr').default('en').description('Language of the header and examples'),
});

const errors = Joi.object().unknown().description('Each field of the row mapped to its messages');

/** The import answer: counts and one result per CSV row (`row` = CSV line, the header being 1). */
export const ImportResult = Joi.object({
  preview: Joi.boolean().required().description('true: nothing was stored'),
  emails: Joi.string().valid('now', 'later').required(),
  created: Joi.number().integer().required(),
  ready: Joi.number().integer().required().description('Preview: rows an import would create'),
  failed: Joi.number().integer().required(),
  results: Joi.array()
    .items(
      Joi.object({
        row: Joi.number().integer().required(),
        status: Joi.string().valid('created').required(),
        id: Joi.string().uuid().required(),
        nom: Joi.string().required(),
        code_unique: Joi.string().required(),
        type_invite: Joi.string().required(),
        seats: Joi.number().integer().required(),
      }).id('ImportRowCreated'),
      Joi.object({
        row: Joi.number().integer().required(),
        status: Joi.string().valid('ready').required(),
        nom: Joi.string().required(),
        email: Joi.string().required(),
        type_invite: Joi.string().required(),
        seats: Joi.number().integer().required(),
      }).id('ImportRowReady'),
      Joi.object({
        row: Joi.number().integer().required(),
        status: Joi.string().valid('failed').required(),
        errors: errors.required(),
      }).id('ImportRowFailed'),
    )
    .required(),
}).id('ImportResult');
