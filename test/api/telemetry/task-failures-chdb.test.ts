import { taskFailuresContract } from './task-failures.contract.js';

taskFailuresContract('chdb');
