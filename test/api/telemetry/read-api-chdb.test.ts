import { readApiContract } from './read-api.contract.js';

readApiContract('chdb');
