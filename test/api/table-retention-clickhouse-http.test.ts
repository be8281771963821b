import { tableRetentionContract } from './table-retention.contract.js';

tableRetentionContract('clickhouse-http');
