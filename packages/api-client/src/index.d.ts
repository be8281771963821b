import type { Client, ClientOptions, Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { Client, ClientOptions, Middleware, components, operations, paths };
export { formatCost, formatPercent } from './format.js';
export { FRAMEWORKS, type Framework } from './values.js';
export type ApiClient = Client<paths>;
export declare function createApiClient(options?: ClientOptions): ApiClient;
