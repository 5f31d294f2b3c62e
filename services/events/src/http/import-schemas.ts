import { Joi } from '@fieldhouse/config';

/** Request bodies of the CSV import (JSON Schema; the handler reads them). */
export const importRequestContent = {
  'text/csv': { type: 'string', description: 'Columns nom, email, type_invite (optional); `,` or `;`' },
  'multipart/form-data': {
    type: 'object',
    required: ['file'],
    properties: { file: { type: 'string', contentMediaType: 'text/csv' } },
  },
};

const errors = Joi.object().unknown().description('Each field of the row mapped to its messages');

/** The import answer: counts and one result per CSV row (`row` = CSV line, the header being 1). */
export const ImportResult = Joi.object({
  created: Joi.number().integer().required(),
  failed: Joi.number().integer().required(),
  results: Joi.array()
    .items(
      Joi.object({
        row: Joi.number().integer().required(),
        status: Joi.string().valid('created').required(),
        id: Joi.string().uuid().required(),
        nom: Joi.string().required(),
        code_unique: Joi.string().required(),
      }).id('ImportRowCreated'),
      Joi.object({
        row: Joi.number().integer().required(),
        status: Joi.string().valid('failed').required(),
        errors: errors.required(),
      }).id('ImportRowFailed'),
    )
    .required(),
}).id('ImportResult');
