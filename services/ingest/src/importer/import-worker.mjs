// Worker entry in plain JS: registers the TypeScript loader in this thread, then runs the worker module.
import { register } from 'tsx/esm/api';

register();
await import('./import-worker.ts');
