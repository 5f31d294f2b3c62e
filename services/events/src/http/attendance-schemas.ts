import { Joi } from '@fieldhouse/config';
import type { Scan } from '../domain/checkin.ts';
import { GatesAttendance } from './gate-schemas.ts';

/** Most scans in one offline batch. */
const MAX_BATCH = 500;

/** Clock skew allowed on a scan time: at most 5 minutes in the future. */
const SKEW_MS = 5 * 60_000;

const device = Joi.string().trim().max(255).description('Scanning device; default: the User-Agent');
const scannePar = Joi.string().trim().max(255).allow('').description('Who scanned; default: the caller name');

/** An ISO 8601 instant with zone; at most 5 minutes in the future (clock skew). */
const scannedAt = Joi.date()
  .iso()
  .custom((v: Date, helpers) => (v.getTime() > Date.now() + SKEW_MS ? helpers.error('date.future') : v))
  .messages({ 'date.future': '{{#label}} is in the future' })
  .description('When scanned (offline scans); at most 5 min ahead');

/** Presence (spec 2.3): `{presence, scanne_par}` plus optional `device`, `scanned_at`. */
export const presenceSchema = Joi.object<{
  presence: boolean;
  scanne_par?: string;
  device?: string;
  scanned_at?: Date;
}>({
  presence: Joi.boolean().strict().required(),
  scanne_par: scannePar,
  device,
  scanned_at: scannedAt,
}).id('PresenceInput');

/** One scan: `{code_unique, nonce?, scanned_at?, device?, scanne_par?}`. */
export const scanSchema = Joi.object<Scan>({
  code_unique: Joi.string()
    .trim()
    .min(1)
    .max(256)
    .required()
    .description(
      'Scanned code (a 22-symbol code, or a signed code `FH1...`); case, spaces and dashes ignored',
    ),
  nonce: Joi.string()
    .trim()
    .min(1)
    .max(128)
    .description('Client scan id: the same nonce counts once per event'),
  scanned_at: scannedAt,
  device,
  scanne_par: scannePar,
  gate_id: Joi.string()
    .guid()
    .description(
      "The gate (check-in list) scanned at; default: the device's gate, else the implicit entrance",
    ),
  direction: Joi.string()
    .valid('entry', 'exit')
    .description('entry (default) or exit (only at a gate that scans exits)'),
  people: Joi.number()
    .integer()
    .min(1)
    .max(100)
    .description('People of the party this scan lets in or out; default: all who can'),
}).id('Scan');

/** Offline batch: `{scans: [scan, ...], device?}`, 1 to {@link MAX_BATCH} items (each validated on its own). */
export const batchSchema = Joi.object<{ scans: unknown[]; device?: string }>({
  scans: Joi.array()
    .items(Joi.any().description('A scan (see Scan), validated on its own: a bad one fails only its result'))
    .min(1)
    .max(MAX_BATCH)
    .required(),
  device,
}).id('ScanBatch');

/** The presence answer of spec 2.3: `{success: true, message}`. */
export const PresenceResult = Joi.object({
  success: Joi.boolean().required(),
  message: Joi.string().required(),
}).id('PresenceResult');

const scannedInvite = Joi.object({
  id: Joi.string().uuid().required(),
  nom: Joi.string().required(),
  type_invite: Joi.string().required(),
}).id('ScannedInvite');

const gateRef = Joi.object({ id: Joi.string().uuid().required(), name: Joi.string().required() })
  .allow(null)
  .description('The gate; null: the implicit entrance');

/** What an admitting scan adds (docs/events.md, "Gates", "Parties"). */
const admitted = {
  direction: Joi.string().valid('entry', 'exit'),
  gate: gateRef,
  people: Joi.number().integer().min(1).description('People this scan let in or out'),
  seats: Joi.number().integer().min(1).description('People the code admits'),
  arrived: Joi.number().integer().min(0).description('People of the party arrived'),
  inside: Joi.number().integer().min(0).description('People of the party inside through this gate now'),
};

/**
 * The check-in answer: `{result: "checked_in", message, invite, checked_in_at, scanne_par}`,
 * with `direction`, `gate`, `people`, `seats`, `arrived`, `inside`; an exit: `result:
 * "checked_out"` with `at`.
 */
export const CheckedIn = Joi.object({
  result: Joi.string().valid('checked_in', 'checked_out').required(),
  message: Joi.string().required(),
  invite: scannedInvite.required(),
  checked_in_at: Joi.string().isoDate(),
  scanne_par: Joi.string().allow(null),
  at: Joi.string().isoDate().description('When the exit was scanned'),
  ...admitted,
}).id('CheckedIn');

/**
 * One result of an offline batch: the item's `index` and `nonce`, `replayed`, and what the
 * single endpoint would answer (its `status` and body: the check-in, or a problem document
 * with its `result`; invalid items: status 422, `result: "invalid"`, `errors`).
 */
const BatchScanResult = Joi.object({
  index: Joi.number().integer().required(),
  nonce: Joi.string().allow(null).required(),
  replayed: Joi.boolean().required(),
  status: Joi.number().integer().required(),
  result: Joi.string()
    .valid(
      'checked_in',
      'checked_out',
      'already_checked_in',
      'seats_exceeded',
      'no_reentry',
      'not_inside',
      'not_admitted',
      'exits_not_scanned',
      'unknown_code',
      'wrong_event',
      'revoked',
      'invalid',
    )
    .required(),
  message: Joi.string(),
  invite: scannedInvite,
  checked_in_at: Joi.string().isoDate(),
  scanne_par: Joi.string().allow(null),
  at: Joi.string().isoDate(),
  ...admitted,
  entered_at: Joi.string().isoDate().allow(null),
  exited_at: Joi.string().isoDate().allow(null),
  remaining: Joi.number().integer().min(0),
  type: Joi.string(),
  title: Joi.string(),
  detail: Joi.string(),
  code: Joi.string(),
  errors: Joi.object().unknown().description('Each field mapped to its messages (invalid items)'),
}).id('BatchScanResult');

/** The batch answer: one result per scan, in order. */
export const BatchResults = Joi.object({
  results: Joi.array().items(BatchScanResult).required(),
}).id('BatchResults');

/** The statistics answer of spec 2.3 over the active (non-revoked) invites. */
export const Stats = Joi.object({
  total: Joi.number().integer().required(),
  present: Joi.number().integer().required(),
  absent: Joi.number().integer().required(),
  taux: Joi.number()
    .integer()
    .min(0)
    .max(100)
    .required()
    .description('floor(100 * present / total), 0 without invites'),
}).id('Stats');

/** `GET .../attendance`: statistics, arrivals per 10 minutes, latest check-ins. */
export const Attendance = Joi.object({
  stats: Stats.required(),
  arrivals: Joi.array()
    .items(
      Joi.object({
        from: Joi.string().isoDate().required().description('Start of the 10-minute window (UTC)'),
        count: Joi.number().integer().min(1).required(),
      }).id('ArrivalBucket'),
    )
    .required()
    .description('Check-ins per 10-minute window of checked_in_at, oldest first; empty windows left out'),
  latest: Joi.array()
    .items(
      Joi.object({
        invite_id: Joi.string().uuid().required(),
        nom: Joi.string().required(),
        type_invite: Joi.string().required(),
        checked_in_at: Joi.string().isoDate().required(),
        scanne_par: Joi.string().allow(null).required(),
        scanner_device: Joi.object({ id: Joi.string().uuid().required(), name: Joi.string().required() })
          .allow(null)
          .required(),
        user_name: Joi.string()
          .allow(null)
          .required()
          .description('The user who scanned, when no device did'),
      }).id('LatestCheckin'),
    )
    .required()
    .description('The latest 20 check-ins and presence changes to present, newest first'),
  gates: GatesAttendance.required(),
}).id('Attendance');
