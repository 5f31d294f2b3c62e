import Joi from 'joi';

/** `POST /api/v1/login`, `/api/login` (spec 4.1, 4.3): `{email, password, device_name?}`. */
export interface LoginCommand {
  email: string;
  password: string;
  device_name?: string;
}
export const loginBody = Joi.object<LoginCommand>({
  email: Joi.string().trim().max(255).required(),
  password: Joi.string().required().description('At most 72 bytes (bcrypt); a longer one is a 422'),
  device_name: Joi.string().trim().max(255).description('Name of the token issued (default `login`)'),
});

/** `POST /api/v1/register`: `{name, email, password, password_confirmation?}`. */
export interface RegisterCommand {
  name: string;
  email: string;
  password: string;
  password_confirmation?: string;
}
export const registerBody = Joi.object<RegisterCommand>({
  name: Joi.string().trim().min(1).max(255).required(),
  email: Joi.string().trim().email({ tlds: false }).max(255).required(),
  password: Joi.string().min(8).required().description('8 characters to 72 bytes'),
  password_confirmation: Joi.string().description('When given, must equal `password`'),
});

/** `POST /api/v1/tokens` (spec 4.1, 5.2): `{name}`. */
export const tokenBody = Joi.object<{ name: string }>({
  name: Joi.string().trim().min(1).max(255).required(),
});

const isoInstant = () => Joi.string().isoDate();

/** The user of the login answer (spec 2.1): `{id, name, email}`. */
const userSchema = Joi.object({
  id: Joi.number().integer().required(),
  name: Joi.string().required(),
  email: Joi.string().email({ tlds: false }).required(),
}).id('User');

/** `GET /api/v1/me`: the user with the instants of their account. */
export const accountSchema = Joi.object({
  id: Joi.number().integer().required(),
  name: Joi.string().required(),
  email: Joi.string().email({ tlds: false }).required(),
  language: Joi.string()
    .valid('en', 'fr')
    .allow(null)
    .required()
    .description('The language of the console and e-mails; null when never chosen (issue 32)'),
  time_zone: Joi.string()
    .allow(null)
    .required()
    .description('An IANA time zone name (`Europe/Paris`); null when never chosen (issue 32)'),
  email_verified_at: isoInstant()
    .allow(null)
    .required()
    .description('When the current e-mail was verified by its link; null: unverified (issue 32)'),
  created_at: isoInstant().required(),
  updated_at: isoInstant().required(),
}).id('Account');

/** A personal access token as listed: never its secret. */
export const tokenSchema = Joi.object({
  id: Joi.number().integer().required(),
  name: Joi.string().required(),
  last_used_at: isoInstant().allow(null).required(),
  expires_at: isoInstant().allow(null).required(),
  created_at: isoInstant().required(),
}).id('Token');

/** `{token, user}`: the answer of login and register; `token` is `<id>|<secret>`. */
export const loginAnswer = Joi.object({
  token: Joi.string().required().example('1|x9W...c0ffee42'),
  user: userSchema.required(),
}).id('LoginResponse');

/** The answer of token creation: the plain `id|secret`, shown in this answer only. */
export const createdTokenAnswer = Joi.object({
  token: Joi.string().required(),
  data: tokenSchema.keys({ token: Joi.string().required() }).id('CreatedToken').required(),
});
