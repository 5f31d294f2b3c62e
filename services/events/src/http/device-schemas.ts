import { Joi } from '@fieldhouse/config';
import { pathUuidSchema } from '@fieldhouse/http';

/** `POST /api/events/{event_id}/devices`: `{name}`, e.g. "North door" (1 to 100 characters). */
export const deviceSchema = Joi.object<{ name: string; gate_id?: string | null }>({
  name: Joi.string()
    .trim()
    .min(1)
    .max(100)
    .required()
    .description('What door staff call it, e.g. "North door"'),
  gate_id: Joi.string()
    .guid()
    .allow(null)
    .description('The gate it scans at (docs/events.md, "Gates"); absent or null: the implicit entrance'),
}).id('DeviceInput');

/** `POST /api/events/devices/redeem` (the gateway only): `{setup_code}`. */
export const setupCodeSchema = Joi.object<{ setup_code: string }>({
  setup_code: Joi.string()
    .max(64)
    .required()
    .description('The one-time setup code, 16 symbols; dashes and spaces are ignored'),
}).id('SetupCode');

/** The path of one device: `{event_id}` and `{device_id}`, UUIDs (anything else is a 404). */
export const deviceParams = Joi.object<{ event_id: string; device_id: string }>({
  event_id: pathUuidSchema().required(),
  device_id: pathUuidSchema().required(),
});

const nullableDate = Joi.string().isoDate().allow(null).required();

/** A scanner device (docs/events.md, "Scanner devices"). */
export const Device = Joi.object({
  id: Joi.string().uuid().required(),
  event_id: Joi.string().uuid().required(),
  name: Joi.string().required(),
  gate_id: Joi.string()
    .uuid()
    .allow(null)
    .required()
    .description('The gate it scans at; null: the implicit entrance'),
  status: Joi.string()
    .valid('awaiting_setup', 'active', 'revoked')
    .required()
    .description('`awaiting_setup` until its setup code is used, then `active`, or `revoked`'),
  created_at: Joi.string().isoDate().required(),
  setup_expires_at: Joi.string().isoDate().required().description('When the setup code stops working (24 h)'),
  set_up_at: nullableDate.description('When the setup code was used'),
  last_seen_at: nullableDate.description('Its latest request, to the minute'),
  revoked_at: nullableDate,
  scans: Joi.number().integer().min(0).required().description('Check-ins it made (history rows)'),
}).id('Device');

/** A new device: the device with its setup code and URL, shown once. */
export const NewDevice = Device.keys({
  setup_code: Joi.string()
    .required()
    .description('One-time setup code, `XXXX-XXXX-XXXX-XXXX`, valid 24 h; only its hash is kept'),
  setup_url: Joi.string()
    .uri()
    .required()
    .description('The console page that sets the device up: `<PUBLIC_URL>/scan/setup#code=<code>`'),
}).id('NewDevice');

/** What the gateway gets for a setup code: the device it sets up. */
export const RedeemedDevice = Joi.object({
  id: Joi.string().uuid().required(),
  name: Joi.string().required(),
  event_id: Joi.string().uuid().required(),
}).id('RedeemedDevice');

/** `GET /api/events/devices/me`: the calling scanner device and its event. */
export const DeviceSelf = Joi.object({
  id: Joi.string().uuid().required(),
  name: Joi.string().required(),
  scans: Joi.number().integer().min(0).required(),
  event: Joi.object({
    id: Joi.string().uuid().required(),
    name: Joi.string().required(),
    start_date: Joi.string().required(),
    end_date: Joi.string().allow(null).required(),
    location: Joi.string().required(),
  }).required(),
  gate: Joi.object({
    id: Joi.string().uuid().required(),
    name: Joi.string().required(),
    scan_exits: Joi.boolean().required().description('Whether exits are scanned at this gate'),
  })
    .allow(null)
    .required()
    .description('The gate the device scans at; null: the event’s implicit entrance (entries only)'),
}).id('DeviceSelf');
