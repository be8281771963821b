/** The answers home reads, from the generated client's schema (these routes declare them). */
import type { paths } from '@sightline/api-client';

export type { DashboardSeries, Overview, Stats } from '../endpoints/types';

export type IssueList = paths['/api/exception-stack-traces']['post']['responses'][200]['content']['application/json'];
