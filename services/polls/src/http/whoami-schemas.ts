import { Joi } from '@fieldhouse/config';

/** The caller as the gateway's JWT describes it (internal-auth's `Caller`). */
export const Caller = Joi.object({
  userId: Joi.number().integer().allow(null).required().description('Null for an anonymous caller.'),
  name: Joi.string().allow(null).required(),
  email: Joi.string().allow(null).required(),
  tokenId: Joi.number()
    .integer()
    .allow(null)
    .required()
    .description('The personal access token used, if any.'),
  method: Joi.string().valid('token', 'session', 'anonymous').required(),
  ip: Joi.string().allow(null).required().description('The client address the gateway saw.'),
  requestTokenId: Joi.string().required().description('The id of the gateway JWT, unique per request.'),
}).id('Caller');

/** `{data: Caller}`. */
export const WhoamiAnswer = Joi.object({ data: Caller.required() });
