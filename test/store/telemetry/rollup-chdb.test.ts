import { rollupContract } from './rollup.contract.js';

rollupContract('chdb');
