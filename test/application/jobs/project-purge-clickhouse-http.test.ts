import { projectPurgeContract } from './project-purge.contract.js';

projectPurgeContract('clickhouse-http');
