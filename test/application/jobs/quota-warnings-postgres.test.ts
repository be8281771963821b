import { postgresUnavailable } from '../../support/postgres.js';
import { quotaWarningsContract } from './quota-warnings.contract.js';

const unavailable = await postgresUnavailable();
if (unavailable) console.warn(`quota warnings on PostgreSQL SKIPPED — no PostgreSQL at 127.0.0.1:5432: ${unavailable}`);
quotaWarningsContract(unavailable ? { skipped: unavailable } : 'postgres');
