/**
 * Answers of the API as the dashboard reads them, from the generated client (packages/api-client,
 * built from the routes' response schemas), under the names the pages use.
 */
import type { Framework, paths } from '@sightline/api-client';

/** The JSON answer of a route at a status (200 unless given). */
export type Answer<
  Path extends keyof paths,
  Method extends 'get' | 'post' | 'put' | 'patch' | 'delete',
  Status extends number = 200,
> = paths[Path][Method] extends { responses: { [S in Status]: { content: { 'application/json': infer Body } } } }
  ? Body
  : never;

export type Me = Answer<'/api/me', 'get'>;
export type User = Me['user'];
export type Role = Me['organizations'][number]['role'];

/** What a read-only member sees instead of a project's secrets (src/core/projects.ts HIDDEN_TOKEN). */
export const HIDDEN_TOKEN = 'read-only-hidden-token';

export type Project = Answer<'/api/projects', 'get'>['projects'][number];

/** GET /api/projects/connection: the project's three secrets (HIDDEN_TOKEN for read-only members). */
export type Connection = Answer<'/api/projects/connection', 'get'>;

export type SessionAnswer = Answer<'/api/auth/login', 'post'>;

export type DeviceSession = Answer<'/api/auth/device-sessions', 'get'>['sessions'][number];

/** A dashboard session or CLI password login of the caller (GET /api/auth/sessions). */
export type AccountSession = Answer<'/api/auth/sessions', 'get'>['sessions'][number];

export type DataStatus = Answer<'/api/projects/data-status', 'get'>;

export type Providers = Answer<'/api/auth/providers', 'get'>;

export type InvitationPreview = Answer<'/api/invitations/preview', 'post'>;

/**
 * The project picker's labels, in the picker's order. Keyed by the service's framework list
 * (`@sightline/api-client`'s FRAMEWORKS), so a framework added there fails the build here until
 * it has a label.
 */
const FRAMEWORK_LABELS: Record<Framework, string> = {
  opentelemetry: 'OpenTelemetry (any server)',
  nodejs: 'Node.js',
  nestjs: 'NestJS',
  go: 'Go',
  javascript: 'Browser JavaScript',
  react: 'React',
  vue: 'Vue',
  svelte: 'Svelte',
  flutter: 'Flutter',
  ios: 'iOS',
  android: 'Android',
  'react-native': 'React Native',
};

export const FRAMEWORKS: ReadonlyArray<{ value: Framework; label: string }> = Object.entries(FRAMEWORK_LABELS).map(
  ([value, label]) => ({ value: value as Framework, label }),
);
