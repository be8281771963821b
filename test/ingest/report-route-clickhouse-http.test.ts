import { reportRouteContract } from './report-route.contract.js';

reportRouteContract('clickhouse-http');
