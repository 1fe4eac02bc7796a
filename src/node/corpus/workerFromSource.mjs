// The corpus pool's worker when running from the TypeScript sources (tests, tsx): registers tsx in this thread,
// then loads the worker. The published package runs dist/lib/corpusWorker.js instead.
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('./worker.ts');
export default run;
