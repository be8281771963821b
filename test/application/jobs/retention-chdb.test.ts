import { retentionContract } from './retention.contract.js';

retentionContract('chdb');
