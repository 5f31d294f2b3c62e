import Joi from 'joi';
import { routeDeclarer } from '@fieldhouse/http';
import type { IdentityContext } from './identity-routes.ts';
import { IdentityPaths } from './paths.ts';

const route = routeDeclarer<IdentityContext>();

const setupBody = Joi.object<{ setup_code: string }>({
  setup_code: Joi.string().max(64).required().description('The setup code of the device, dashes optional'),
}).id('DeviceSetup');

const setupAnswer = Joi.object({
  token: Joi.string()
    .required()
    .description('The device credential `fhd_<id>|<secret>`, shown once: send it as `Authorization: Bearer`'),
  device: Joi.object({
    id: Joi.string().uuid().required(),
    name: Joi.string().required(),
    event_id: Joi.string().uuid().required(),
  }).required(),
}).id('DeviceSetupAnswer');

/**
 * POST /api/events/devices/setup `{setup_code}` (no sign-in; docs/identity.md, "Scanner
 * devices"): exchanges a scanner device's one-time setup code, through the events service, for
 * the device's credential: 201 `{token: "fhd_<id>|<secret>", device: {id, name, event_id}}`.
 * 404 `setup_code_unknown`; 410 `setup_code_used`, `setup_code_expired`, `device_revoked`; 422
 * malformed code.
 */
export const deviceSetupRoute = route({
  method: 'post',
  path: IdentityPaths.deviceSetup,
  operationId: 'setUpDevice',
  summary: 'Exchange a scanner device’s setup code, once, for its credential',
  description:
    'The event owner creates the device (`POST /api/events/{event_id}/devices` on the events service) and shows ' +
    'its setup URL as a QR code; the phone sends the code here. The credential authenticates like a personal ' +
    'access token, for the check-in work of that event only, until the device is revoked.',
  tags: ['identity'],
  access: 'public',
  middleware: (ctx) => [ctx.json],
  body: setupBody,
  responses: { 201: { description: 'The device credential', body: setupAnswer } },
  problems: {
    404: 'Unknown setup code (`setup_code_unknown`)',
    410: 'Setup code already used or expired, or the device revoked',
    422: 'Malformed setup code',
  },
  handler: async ({ body }: { body: { setup_code: string } }, ctx, req) => {
    const device = await ctx.redeemSetupCode(body.setup_code, req.ip);
    const token = await ctx.identity.devices.issue(device);
    return { status: 201, body: { token, device } };
  },
});
