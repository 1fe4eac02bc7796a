import { lazy, Suspense } from 'react';
import { useStore } from '../state/store';
// With the page (it also lays out the document panel's open row), not with the strip.
import './documentTabs.css';

// The strip's code loads when a second document is opened, not on the first screen's path (issue 28).
const DocumentTabStrip = lazy(() => import('./DocumentTabStrip').then((m) => ({ default: m.DocumentTabStrip })));

/** The open documents' tabs above the editor, only when more than one is open (./DocumentTabStrip.tsx). */
export function DocumentTabs() {
  const several = useStore((s) => s.openDocuments.length > 1);
  return several ? (
    <Suspense fallback={null}>
      <DocumentTabStrip />
    </Suspense>
  ) : null;
}
