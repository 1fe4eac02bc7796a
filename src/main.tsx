import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClients } from './bridge/createClients';
import { startController } from './state/controller';
import { App } from './ui/App';
import { SAMPLES } from './ui/samples';
import './ui/styles.css';

const first = SAMPLES[0]!;
// Read URL, stored settings and the stored document before the first render, so the page opens as it was left.
const { chunks, embed } = createClients();
await startController(chunks, { text: first.text, name: first.name }, embed);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
