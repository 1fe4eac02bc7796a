// First: the Trusted Types default policy must exist before any worker or markup is made.
import './ui/trustedTypes';
import { startChunkWorkerEarly } from './bridge/chunkWorker';
import './ui/styles.css';
import './ui/a11y.css';

// The chunk worker starts before the page's own code (React, the store, the panels) is fetched: both load at once,
// and the worker is ready for the first chunk job when the store sends it (docs/first-visit.md).
startChunkWorkerEarly();
const { startApp } = await import('./startApp');
await startApp();
