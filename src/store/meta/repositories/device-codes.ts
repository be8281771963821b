/** RFC 8628 device codes. The device code is stored as its SHA-256; the user code as shown. */
import type { DeviceCodeState, DeviceCodeStatus } from '../../../core/device-flow.js';
import type { MetaTx } from '../types.js';

export interface DeviceCode extends DeviceCodeState {
  id: string;
  userCode: string;
  clientId: string;
  /** The user who approved or denied; null while pending. */
  userId: string | null;
  requesterIp: string | null;
  requesterUserAgent: string | null;
  createdAt: Date;
}

interface DeviceCodeRow {
  id: string;
  user_code: string;
  client_id: string;
  status: DeviceCodeStatus;
  user_id: string | null;
  interval_seconds: number;
  last_polled_at: Date | null;
  requester_ip: string | null;
  requester_user_agent: string | null;
  created_at: Date;
  expires_at: Date;
}

const COLUMNS =
  'id, user_code, client_id, status, user_id, interval_seconds, last_polled_at, requester_ip, requester_user_agent, created_at, expires_at';

const toDeviceCode = (row: DeviceCodeRow): DeviceCode => ({
  id: row.id,
  userCode: row.user_code,
  clientId: row.client_id,
  status: row.status,
  userId: row.user_id,
  intervalSeconds: row.interval_seconds,
  lastPolledAt: row.last_polled_at,
  requesterIp: row.requester_ip,
  requesterUserAgent: row.requester_user_agent,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/** Inserts a pending code; false when its user code collides with another pending one (pick another). */
export async function insertDeviceCode(
  db: MetaTx,
  code: {
    deviceCodeHash: string;
    userCode: string;
    clientId: string;
    intervalSeconds: number;
    requesterIp: string;
    requesterUserAgent: string | null;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO device_codes (device_code_hash, user_code, client_id, interval_seconds, requester_ip, requester_user_agent, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (user_code) WHERE status = 'pending' DO NOTHING
     RETURNING id`,
    [
      code.deviceCodeHash,
      code.userCode,
      code.clientId,
      code.intervalSeconds,
      code.requesterIp,
      code.requesterUserAgent,
      code.createdAt,
      code.expiresAt,
    ],
  );
  return rows.length > 0;
}

/** Removes codes expired before `before`; they can only answer expired_token, which an unknown code's invalid_grant replaces. */
export async function deleteDeviceCodesExpiredBefore(db: MetaTx, before: Date): Promise<void> {
  await db.query('DELETE FROM device_codes WHERE expires_at < $1', [before]);
}

export async function findDeviceCodeByHash(db: MetaTx, deviceCodeHash: string): Promise<DeviceCode | null> {
  const rows = await db.query<DeviceCodeRow>(`SELECT ${COLUMNS} FROM device_codes WHERE device_code_hash = $1`, [
    deviceCodeHash,
  ]);
  return rows[0] ? toDeviceCode(rows[0]) : null;
}

/** The pending, unexpired code a person typed, or null. */
export async function findPendingDeviceCode(db: MetaTx, userCode: string, now: Date): Promise<DeviceCode | null> {
  const rows = await db.query<DeviceCodeRow>(
    `SELECT ${COLUMNS} FROM device_codes WHERE user_code = $1 AND status = 'pending' AND expires_at > $2`,
    [userCode, now],
  );
  return rows[0] ? toDeviceCode(rows[0]) : null;
}

/** Records a poll of a pending code and the interval the client must keep from now on. */
export async function recordDevicePoll(db: MetaTx, id: string, now: Date, intervalSeconds: number): Promise<void> {
  await db.query(
    "UPDATE device_codes SET last_polled_at = $2, interval_seconds = $3 WHERE id = $1 AND status = 'pending'",
    [id, now, intervalSeconds],
  );
}

/** Approves or denies a pending, unexpired code; false when it is no longer pending or has expired. */
export async function decideDeviceCode(
  db: MetaTx,
  id: string,
  decision: 'approved' | 'denied',
  userId: string,
  now: Date,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE device_codes SET status = $2, user_id = $3, decided_at = $4
      WHERE id = $1 AND status = 'pending' AND expires_at > $4
      RETURNING id`,
    [id, decision, userId, now],
  );
  return rows.length > 0;
}

/**
 * Marks an approved code consumed and returns who approved it. Only one caller wins: a second,
 * concurrent poll with the same code finds it no longer approved and gets null.
 */
export async function consumeDeviceCode(
  db: MetaTx,
  id: string,
  now: Date,
): Promise<{ userId: string; clientId: string; requesterIp: string | null; requesterUserAgent: string | null } | null> {
  const rows = await db.query<{
    user_id: string;
    client_id: string;
    requester_ip: string | null;
    requester_user_agent: string | null;
  }>(
    `UPDATE device_codes SET status = 'consumed', consumed_at = $2
      WHERE id = $1 AND status = 'approved'
      RETURNING user_id, client_id, requester_ip, requester_user_agent`,
    [id, now],
  );
  const row = rows[0];
  return row
    ? {
        userId: row.user_id,
        clientId: row.client_id,
        requesterIp: row.requester_ip,
        requesterUserAgent: row.requester_user_agent,
      }
    : null;
}
