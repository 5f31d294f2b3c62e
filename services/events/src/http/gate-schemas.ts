import { Joi } from '@fieldhouse/config';
import { pathUuidSchema } from '@fieldhouse/http';
import { INVITE_TYPES } from '../domain/invite-types.ts';

const gateFields = {
  name: Joi.string()
    .trim()
    .min(1)
    .max(100)
    .description('Shown to door staff and in refusals, e.g. "North door"'),
  invite_types: Joi.array()
    .items(
      Joi.string()
        .trim()
        .lowercase()
        .valid(...INVITE_TYPES),
    )
    .unique()
    .description('The invite types it admits; empty or absent: every type'),
  scan_exits: Joi.boolean().strict().description('Whether exits are scanned there; default false'),
  allow_reentry: Joi.boolean()
    .strict()
    .description('Whether someone who left may enter again; default false (always false without scan_exits)'),
};

/** `POST .../gates`: `{name, invite_types?, scan_exits?, allow_reentry?}`. */
export const createGateSchema = Joi.object<{
  name: string;
  invite_types?: string[];
  scan_exits?: boolean;
  allow_reentry?: boolean;
}>({ ...gateFields, name: gateFields.name.required() }).id('GateInput');

/** `PATCH .../gates/{gate_id}`: any of the fields (at least one). */
export const updateGateSchema = Joi.object<{
  name?: string;
  invite_types?: string[];
  scan_exits?: boolean;
  allow_reentry?: boolean;
}>(gateFields)
  .min(1)
  .id('GatePatch');

/** The path of one gate: `{event_id}` (a UUID, else 404) and `{gate_id}` (read as is: 404 when not a gate of the event). */
export const gateParams = Joi.object<{ event_id: string; gate_id: string }>({
  event_id: pathUuidSchema().required(),
  gate_id: Joi.string().required().meta({ format: 'uuid' }),
});

/** A gate (check-in list) of an event. */
export const Gate = Joi.object({
  id: Joi.string().uuid().required(),
  name: Joi.string().required(),
  invite_types: Joi.array().items(Joi.string()).required().description('Empty: every type'),
  scan_exits: Joi.boolean().required(),
  allow_reentry: Joi.boolean().required(),
  created_at: Joi.string().isoDate().required(),
}).id('Gate');

/** The gates part of `GET .../attendance`. */
export const GatesAttendance = Joi.object({
  inside: Joi.number().integer().min(0).required().description('People inside now (sum of the gates)'),
  entries: Joi.number().integer().min(0).required(),
  exits: Joi.number().integer().min(0).required(),
  gates: Joi.array()
    .items(
      Joi.object({
        id: Joi.string().uuid().allow(null).required().description('null: the implicit entrance'),
        name: Joi.string().allow(null).required(),
        inside: Joi.number().integer().min(0).required(),
        entries: Joi.number().integer().min(0).required(),
        exits: Joi.number().integer().min(0).required(),
      }).id('GateAttendance'),
    )
    .required(),
  inside_over_time: Joi.array()
    .items(
      Joi.object({
        gate_id: Joi.string().uuid().allow(null).required(),
        from: Joi.string().isoDate().required().description('Start of the 10-minute window (UTC)'),
        inside: Joi.number()
          .integer()
          .min(0)
          .required()
          .description('People inside at the end of the window'),
      }).id('InsidePoint'),
    )
    .required(),
  arrivals_by_type: Joi.array()
    .items(
      Joi.object({
        type_invite: Joi.string().required(),
        arrived: Joi.number().integer().min(0).required(),
        seats: Joi.number().integer().min(0).required(),
      }).id('ArrivalsByType'),
    )
    .required(),
}).id('GatesAttendance');
