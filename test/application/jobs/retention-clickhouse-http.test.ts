import { retentionContract } from './retention.contract.js';

retentionContract('clickhouse-http');
