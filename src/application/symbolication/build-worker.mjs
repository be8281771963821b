// Worker entry: the sources are TypeScript run through tsx, which a worker must register itself.
import { register } from 'tsx/esm/api';

register();
await import('./build-worker.ts');
