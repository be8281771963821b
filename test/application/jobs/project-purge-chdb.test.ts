import { projectPurgeContract } from './project-purge.contract.js';

projectPurgeContract('chdb');
