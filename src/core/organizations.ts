import { isTimeZone } from './time-zones.js';

/** Organization settings the API accepts: the name and the time zone the dashboard shows times in. */
export interface OrganizationSettingsInput {
  name?: string;
  /** IANA time zone name, e.g. Europe/Berlin; UTC by default. */
  timezone?: string;
}

export const ORGANIZATION_NAME_MAX_LENGTH = 100;

/** Why a settings change is refused, or null. */
export function organizationSettingsProblem(input: OrganizationSettingsInput): string | null {
  if (input.name !== undefined) {
    const length = [...input.name.trim()].length;
    if (length === 0 || length > ORGANIZATION_NAME_MAX_LENGTH)
      return `name must be 1 to ${ORGANIZATION_NAME_MAX_LENGTH} characters`;
  }
  if (input.timezone !== undefined && !isTimeZone(input.timezone))
    return 'timezone must be an IANA time zone name such as Europe/Berlin or UTC';
  return null;
}
