import Joi from 'joi';
import { routeDeclarer, type AnyRouteSpec } from '@fieldhouse/http';
import { unauthenticated, unprocessable, validationFailed } from '@fieldhouse/problem';
import {
  acceptedAnswer,
  emailVerifyBody,
  passwordChangeBody,
  passwordForgotBody,
  passwordResetBody,
  profileBody,
} from './account-schemas.ts';
import { requireSignedIn } from './authenticate.ts';
import type { IdentityContext } from './identity-routes.ts';
import { accountSchema } from './identity-schemas.ts';
import { MAX_PASSWORD_BYTES, passwordTooLong } from './passwords.ts';
import { IdentityPaths } from './paths.ts';
import { toPublicUser } from './users-repo.ts';

const route = routeDeclarer<IdentityContext>();
const SESSION_OR_TOKEN = 'Signed in with a personal access token or the session cookie.';

/** The answer of `POST /api/v1/password/forgot`, whether or not an account has the address. */
const RESET_REQUESTED =
  'If an account has this e-mail address, a link to choose a new password is on its way. It works once, for 30 minutes.';

/** 422 for a password over bcrypt's 72 bytes, or a confirmation that differs. */
function checkNewPassword(password: string, confirmation: string | undefined) {
  if (passwordTooLong(password))
    throw unprocessable('password', `The password may not be greater than ${MAX_PASSWORD_BYTES} bytes.`);
  if (confirmation !== undefined && confirmation !== password)
    throw validationFailed({ password: ['The password confirmation does not match.'] });
}

/**
 * The account routes of issue 32 (docs/identity.md, "Accounts"): edit the profile, change the
 * password, verify the e-mail address, reset a forgotten password by an e-mailed link.
 */
export const accountRoutes: AnyRouteSpec<IdentityContext>[] = [
  /**
   * PATCH /api/v1/me: `{name?, email?, language?, time_zone?}` (one at least) → 200
   * `{data: Account}`. A new e-mail is unverified and gets a verification link; another
   * account's address: 422 `email_in_use`.
   */
  route({
    method: 'patch',
    path: IdentityPaths.me,
    operationId: 'updateMe',
    summary: "Change the signed-in user's name, e-mail, language or time zone",
    description:
      `${SESSION_OR_TOKEN} A new e-mail address is unverified (\`email_verified_at: null\`) until the link ` +
      'e-mailed to it is opened. Services receive the change as `user.updated`.',
    tags: ['identity'],
    middleware: (ctx) => [requireSignedIn, ctx.json],
    body: profileBody,
    responses: { 200: { description: 'The user', body: Joi.object({ data: accountSchema.required() }) } },
    problems: {
      401: 'Not signed in',
      403: 'Session without a valid X-XSRF-TOKEN header',
      422: 'Bad field, or the e-mail belongs to another account (`email_in_use`)',
    },
    handler: async ({ body }, ctx, req) => {
      const result = await ctx.accounts.updateProfile(req.identity.user!.id, body);
      if (result === 'email_in_use')
        throw validationFailed({ email: ['The email has already been taken.'] }, { code: 'email_in_use' });
      if (!result) throw unauthenticated();
      return { body: { data: toPublicUser(result) } };
    },
  }),

  /**
   * PUT /api/v1/me/password: `{current_password, password, password_confirmation?}` → 204.
   * Every other browser session of the user is signed out; personal access tokens stay.
   */
  route({
    method: 'put',
    path: IdentityPaths.mePassword,
    operationId: 'changePassword',
    summary: 'Change the password (the current one required); signs out every other browser session',
    description:
      `${SESSION_OR_TOKEN} Every other browser session of the user ends (with a token: every session); ` +
      'personal access tokens stay valid (revoke them on their own routes). Wrong current password: 422 ' +
      '`current_password_incorrect`.',
    tags: ['identity'],
    middleware: (ctx) => [requireSignedIn, ctx.json],
    body: passwordChangeBody,
    responses: { 204: { description: 'Changed' } },
    problems: {
      401: 'Not signed in',
      403: 'Session without a valid X-XSRF-TOKEN header',
      422: 'Wrong current password (`current_password_incorrect`), short or long password, confirmation differs',
    },
    handler: async ({ body }, ctx, req) => {
      checkNewPassword(body.password, body.password_confirmation);
      const changed = await ctx.accounts.changePassword(
        req.identity.user!.id,
        body.current_password,
        body.password,
        req.identity.sessionIdHash,
      );
      if (!changed)
        throw unprocessable('current_password', 'The current password is incorrect.', {
          code: 'current_password_incorrect',
        });
      return { status: 204 };
    },
  }),

  /**
   * POST /api/v1/me/email-verification → 202 `{message}`: e-mails a new verification link to the
   * user's address; 204 when it is verified already. Rate-limited per user (429).
   */
  route({
    method: 'post',
    path: IdentityPaths.meEmailVerification,
    operationId: 'sendEmailVerification',
    summary: "E-mail a new verification link to the signed-in user's address",
    description: `${SESSION_OR_TOKEN} Limited per user (ACCOUNT_EMAILS_PER_ADDRESS per ACCOUNT_EMAILS_WINDOW_SECONDS).`,
    tags: ['identity'],
    middleware: (ctx) => [requireSignedIn, ctx.accountLimiters.verificationPerUser],
    responses: {
      202: { description: 'A link is on its way', body: acceptedAnswer },
      204: { description: 'The address is verified already: nothing sent' },
    },
    problems: {
      401: 'Not signed in',
      403: 'Session without a valid X-XSRF-TOKEN header',
      429: 'Too many e-mails asked for (`Retry-After` in seconds)',
    },
    handler: async (_input, ctx, req) => {
      const sent = await ctx.accounts.sendVerification(req.identity.user!.id);
      return sent
        ? { status: 202, body: { message: 'A verification link is on its way.' } }
        : { status: 204 };
    },
  }),

  /** POST /api/v1/email/verify: `{token}` → 204; an unknown, used or expired link 422 `verification_link_invalid`. */
  route({
    method: 'post',
    path: IdentityPaths.emailVerify,
    operationId: 'verifyEmail',
    summary: 'Verify an e-mail address with the secret of its link (no sign-in needed)',
    description:
      'The link is `<PUBLIC_URL>/verify-email#token=<secret>`, single use, valid 48 hours, and only for the ' +
      'address it was sent to.',
    tags: ['identity'],
    access: 'public',
    middleware: (ctx) => [ctx.json],
    body: emailVerifyBody,
    responses: { 204: { description: 'Verified' } },
    problems: { 422: 'Unknown, used or expired link (`verification_link_invalid`)' },
    handler: async ({ body }, ctx) => {
      if (!(await ctx.accounts.verifyEmail(body.token)))
        throw unprocessable('token', 'This verification link is invalid, used or expired.', {
          code: 'verification_link_invalid',
        });
      return { status: 204 };
    },
  }),

  /**
   * POST /api/v1/password/forgot: `{email}` → 202 `{message}`, the same answer whether or not an
   * account has the address; rate-limited per address and per e-mail (429).
   */
  route({
    method: 'post',
    path: IdentityPaths.passwordForgot,
    operationId: 'forgotPassword',
    summary: 'Ask for a password reset link by e-mail',
    description:
      'Always 202 with the same message, whether or not an account has the address (no account enumeration); ' +
      'the e-mail, if any, is sent after the answer. Limited per client address (ACCOUNT_EMAILS_PER_IP) and per ' +
      'e-mail typed (ACCOUNT_EMAILS_PER_ADDRESS) per ACCOUNT_EMAILS_WINDOW_SECONDS. The link is ' +
      '`<PUBLIC_URL>/reset-password#token=<secret>`, single use, valid 30 minutes.',
    tags: ['identity'],
    access: 'public',
    middleware: (ctx) => [ctx.json, ctx.accountLimiters.resetPerIp, ctx.accountLimiters.resetPerEmail],
    body: passwordForgotBody,
    responses: {
      202: { description: 'Accepted (whether or not an account has the address)', body: acceptedAnswer },
    },
    problems: { 422: 'Not an e-mail address', 429: 'Too many requests (`Retry-After` in seconds)' },
    handler: ({ body }, ctx) => {
      ctx.accounts.requestPasswordReset(body.email).catch((err: unknown) => {
        ctx.logger.warn('a password reset request failed', { err });
      });
      return { status: 202, body: { message: RESET_REQUESTED } };
    },
  }),

  /**
   * POST /api/v1/password/reset: `{token, password, password_confirmation?}` → 204; the link is
   * used up and every browser session of the user ends. Unknown, used or expired link: 422
   * `reset_link_invalid`.
   */
  route({
    method: 'post',
    path: IdentityPaths.passwordReset,
    operationId: 'resetPassword',
    summary: 'Set a new password with the secret of a reset link; signs out every browser session',
    description:
      'Personal access tokens stay valid. The address counts as verified from then on (the link reached it).',
    tags: ['identity'],
    access: 'public',
    middleware: (ctx) => [ctx.json],
    body: passwordResetBody,
    responses: { 204: { description: 'The new password is set' } },
    problems: {
      422: 'Unknown, used or expired link (`reset_link_invalid`), short or long password, confirmation differs',
    },
    handler: async ({ body }, ctx) => {
      checkNewPassword(body.password, body.password_confirmation);
      if (!(await ctx.accounts.resetPassword(body.token, body.password)))
        throw unprocessable('token', 'This password reset link is invalid, used or expired.', {
          code: 'reset_link_invalid',
        });
      return { status: 204 };
    },
  }),
];
