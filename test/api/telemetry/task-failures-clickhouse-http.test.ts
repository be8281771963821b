import { taskFailuresContract } from './task-failures.contract.js';

taskFailuresContract('clickhouse-http');
