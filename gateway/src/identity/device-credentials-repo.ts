import type { Knex } from 'knex';
import { DEVICE_CREDENTIAL_PREFIX, generateSecret, hashSecret } from './token-format.ts';

/** What authenticating a device credential needs. */
export interface DeviceCredentialRow {
  id: number;
  device_id: string;
  event_id: string;
  device_name: string;
  token_hash: string;
  last_used_at: Date | null;
}

/** Data access for `device_credentials`. */
export class DeviceCredentialsRepo {
  private readonly db: Knex;

  constructor(db: Knex) {
    this.db = db;
  }

  /**
   * Issues the credential of a device just set up, replacing any earlier one of that device;
   * resolves with the plain `fhd_<id>|<secret>` (shown once; only its SHA-256 is kept).
   */
  async issue(device: { id: string; event_id: string; name: string }): Promise<string> {
    const secret = generateSecret();
    const [row] = (await this.db('device_credentials')
      .insert({
        device_id: device.id,
        event_id: device.event_id,
        device_name: device.name,
        token_hash: hashSecret(secret),
      })
      .onConflict('device_id')
      .merge()
      .returning('id')) as Array<{ id: number }>;
    return `${DEVICE_CREDENTIAL_PREFIX}${row!.id}|${secret}`;
  }

  /** One lookup by primary key. */
  findForAuth(id: number): Promise<DeviceCredentialRow | undefined> {
    return this.db('device_credentials')
      .select('id', 'device_id', 'event_id', 'device_name', 'token_hash', 'last_used_at')
      .where('id', id)
      .first() as Promise<DeviceCredentialRow | undefined>;
  }

  /** Records use at most once a minute per credential (fire and forget). */
  touch(id: number): Promise<unknown> {
    return this.db('device_credentials')
      .where('id', id)
      .andWhere((q) =>
        q
          .whereNull('last_used_at')
          .orWhere('last_used_at', '<', this.db.raw("now() - interval '60 seconds'")),
      )
      .update({ last_used_at: this.db.fn.now() });
  }
}
