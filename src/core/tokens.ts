/**
 * Credential formats and their generation. Project ingest tokens are 32 lowercase hex (the
 * spec's exact-match form); other secrets carry a prefix that says what they are, so a leaked
 * one is recognisable (and secret scanners can match it).
 */
import { randomBytes } from 'node:crypto';

export const INGEST_TOKEN = /^[0-9a-f]{32}$/;
export const UPLOAD_TOKEN = /^tpu_[0-9a-f]{40}$/;
export const SOURCE_MAP_TOKEN = /^tps_[0-9a-f]{40}$/;
export const PERSONAL_ACCESS_TOKEN = /^tpp_[0-9a-f]{48}$/;

export const newIngestToken = (): string => randomBytes(16).toString('hex');
export const newUploadToken = (): string => `tpu_${randomBytes(20).toString('hex')}`;
export const newSourceMapToken = (): string => `tps_${randomBytes(20).toString('hex')}`;
export const newPersonalAccessToken = (): string => `tpp_${randomBytes(24).toString('hex')}`;
