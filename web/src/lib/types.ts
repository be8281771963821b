/**
 * Answers of routes that do not declare a response schema in the OpenAPI document yet, as the
 * server code returns them (src/api/**). Where a route declares one, use the generated type.
 */
import type { paths } from '@sightline/api-client';

export type Role = 'admin' | 'write' | 'read-only';

export interface User {
  id: string;
  email: string;
  name: string;
}

export interface Me {
  user: User;
  organizations: Array<{ id: string; name: string; role: Role; suspended: boolean }>;
}

/** What a read-only member sees instead of a project's secrets (src/core/projects.ts HIDDEN_TOKEN). */
export const HIDDEN_TOKEN = 'read-only-hidden-token';

export interface Project {
  id: string;
  name: string;
  framework: string;
  organizationId: string;
  backendUrl: string;
  role: Role;
  token: string;
}

/** GET /api/projects/connection: the project's three secrets (HIDDEN_TOKEN for read-only members). */
export interface Connection {
  projectId: string;
  token: string;
  uploadToken: string;
  sourceMapToken: string;
}

export interface SessionAnswer {
  token: string;
  expiresAt: string;
  user: User;
}

export type DeviceSession =
  paths['/api/auth/device-sessions']['get']['responses'][200]['content']['application/json']['sessions'][number];

export type DataStatus = paths['/api/projects/data-status']['get']['responses'][200]['content']['application/json'];

export type Providers = paths['/api/auth/providers']['get']['responses'][200]['content']['application/json'];

export type InvitationPreview =
  paths['/api/invitations/preview']['post']['responses'][200]['content']['application/json'];

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
