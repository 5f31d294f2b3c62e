import Joi from 'joi';

/** The caller as the gateway's JWT describes it (libs/internal-auth `Caller`); ids null when absent. */
export const callerSchema = Joi.object({
  userId: Joi.number().integer().allow(null).required().description('User id; null for an anonymous caller'),
  name: Joi.string().allow(null).required(),
  email: Joi.string().allow(null).required(),
  tokenId: Joi.number()
    .integer()
    .allow(null)
    .required()
    .description('Personal access token id, when one was used'),
  method: Joi.string().valid('token', 'session', 'anonymous').required(),
  ip: Joi.string().allow(null).required(),
  requestTokenId: Joi.string().required().description('The JWT id, unique per proxied request'),
}).id('Caller');
