/**
 * Credential formats and their generation. Project ingest tokens are 32 lowercase hex (the
 * spec's exact-match form); other secrets carry a prefix that says what they are, so a leaked
 * one is recognisable (and secret scanners can match it).
 */
import { createHash, randomBytes } from 'node:crypto';

export const INGEST_TOKEN = /^[0-9a-f]{32}$/;
export const UPLOAD_TOKEN = /^tpu_[0-9a-f]{40}$/;
export const SOURCE_MAP_TOKEN = /^tps_[0-9a-f]{40}$/;
export const PERSONAL_ACCESS_TOKEN = /^tpp_[0-9a-f]{48}$/;

export const newIngestToken = (): string => randomBytes(16).toString('hex');
export const newUploadToken = (): string => `tpu_${randomBytes(20).toString('hex')}`;
export const newSourceMapToken = (): string => `tps_${randomBytes(20).toString('hex')}`;
export const newPersonalAccessToken = (): string => `tpp_${randomBytes(24).toString('hex')}`;
export const REFRESH_TOKEN = /^tpr_[0-9a-f]{48}$/;
export const DEVICE_CODE = /^tpd_[0-9a-f]{48}$/;
export const INVITATION_TOKEN = /^tpi_[0-9a-f]{40}$/;

export const newRefreshToken = (): string => `tpr_${randomBytes(24).toString('hex')}`;
export const newDeviceCode = (): string => `tpd_${randomBytes(24).toString('hex')}`;
export const newInvitationToken = (): string => `tpi_${randomBytes(20).toString('hex')}`;

/** Password reset links carry 32 random bytes as base64url (no prefix: the link says what it is). */
export const PASSWORD_RESET_TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const newPasswordResetToken = (): string => randomBytes(32).toString('base64url');

/**
 * SHA-256 hex of a secret: the only form in which hashed credentials are stored and looked up.
 * Looking a secret up by its hash replaces comparing secrets, so no comparison can leak timing.
 */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
