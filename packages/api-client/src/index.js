// Plain ESM so that the dashboard (through Vite) and the CLI (through Node) use it without a build step.
import createClient from 'openapi-fetch';

export { formatCost, formatPercent } from './format.js';
export { FRAMEWORKS } from './values.js';

/** A client whose paths, parameters and bodies are checked against the service's OpenAPI document. */
export function createApiClient(options = {}) {
  return createClient(options);
}
