import { reportRouteContract } from './report-route.contract.js';

reportRouteContract('chdb');
