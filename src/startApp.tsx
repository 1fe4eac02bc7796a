import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClients } from './bridge/createClients';
import { startPwa } from './pwa/register';
import { startController } from './state/controller';
import { applySharedLink } from './state/shareLinkSync';
import { useStore } from './state/store';
import { App } from './ui/App';
import { FIRST_SAMPLE } from './ui/samples';
import { preloadSemanticControls } from './ui/panels/semanticControlsLoader';
import { selectStrategy } from './state/selectors';
import firstChunks from 'virtual:chunkscope-first-chunks';

/** The page: clients, controller (URL, stored settings and document), the service worker, then React. */
export async function startApp(): Promise<void> {
  const first = FIRST_SAMPLE;
  // Read URL, stored settings and the stored document before the first render, so the page opens as it was left.
  const { chunks, embed } = createClients();
  await startController(chunks, { text: first.text, name: first.name }, embed, firstChunks);
  // A share link's document (#doc=… in the fragment) over the stored one; a settings-only link says so.
  await applySharedLink(useStore, first.text);
  // The semantic strategy's controls, when the page opens on it (else they load after the first paint).
  await preloadSemanticControls(selectStrategy(useStore.getState()));
  // The offline app: the service worker (production builds) and the online/offline state.
  startPwa();

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
