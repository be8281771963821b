/**
 * Answers of the API as the dashboard reads them, from the generated client (packages/api-client,
 * built from the routes' response schemas), under the names the pages use.
 */
import type { paths } from '@sightline/api-client';

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

export type DataStatus = Answer<'/api/projects/data-status', 'get'>;

export type Providers = Answer<'/api/auth/providers', 'get'>;

export type InvitationPreview = Answer<'/api/invitations/preview', 'post'>;

/** The dashboard project picker's values (src/core/projects.ts FRAMEWORKS). */
export const FRAMEWORKS: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'opentelemetry', label: 'OpenTelemetry (any server)' },
  { value: 'nodejs', label: 'Node.js' },
  { value: 'nestjs', label: 'NestJS' },
  { value: 'go', label: 'Go' },
  { value: 'javascript', label: 'Browser JavaScript' },
  { value: 'react', label: 'React' },
  { value: 'vue', label: 'Vue' },
  { value: 'svelte', label: 'Svelte' },
  { value: 'flutter', label: 'Flutter' },
  { value: 'ios', label: 'iOS' },
  { value: 'android', label: 'Android' },
  { value: 'react-native', label: 'React Native' },
];
