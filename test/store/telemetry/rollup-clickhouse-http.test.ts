import { rollupContract } from './rollup.contract.js';

rollupContract('clickhouse-http');
