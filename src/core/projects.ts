/** Project rules (spec: Project; DESIGN §4 framework values). */

/** The dashboard project picker's values. `opentelemetry` serves any server-side system. */
export const FRAMEWORKS = [
  'opentelemetry',
  'go',
  'nodejs',
  'nestjs',
  'javascript',
  'react',
  'vue',
  'svelte',
  'flutter',
  'ios',
  'android',
  'react-native',
] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** Shown instead of the ingest token to members whose effective role is read-only. */
export const HIDDEN_TOKEN = 'read-only-hidden-token';

export const PROJECT_NAME_MAX_LENGTH = 100;
const PROJECT_NAME = /^[\p{L}\p{N} _-]+$/u;

/** Why a project name is refused, or null when it is valid. Surrounding spaces are trimmed first. */
export function projectNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0 || [...trimmed].length > PROJECT_NAME_MAX_LENGTH || !PROJECT_NAME.test(trimmed)) {
    return `name must be 1 to ${PROJECT_NAME_MAX_LENGTH} characters of letters, numbers, spaces, hyphens and underscores`;
  }
  return null;
}

export function isFramework(value: string): value is Framework {
  return (FRAMEWORKS as readonly string[]).includes(value);
}

export const frameworkProblem = (value: string): string | null =>
  isFramework(value) ? null : `framework must be one of ${FRAMEWORKS.join(', ')}`;

export const BACKEND_URL_MAX_LENGTH = 2048;

/** Why a backend URL is refused (it must be empty or an http(s) URL), or null. */
export function backendUrlProblem(value: string): string | null {
  if (value === '') return null;
  const protocol = URL.canParse(value) ? new URL(value).protocol : null;
  if ((protocol !== 'http:' && protocol !== 'https:') || value.length > BACKEND_URL_MAX_LENGTH) {
    return `backendUrl must be empty or an http(s) URL of at most ${BACKEND_URL_MAX_LENGTH} characters`;
  }
  return null;
}

/** What the ingest surface knows of the project whose token a request carries. */
export interface IngestProject {
  id: string;
  organizationId: string;
  framework: string;
  /** The organization is suspended: ingest answers 503. */
  suspended: boolean;
}
