import { quotaWarningsContract } from './quota-warnings.contract.js';

quotaWarningsContract('pglite');
