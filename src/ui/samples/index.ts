import { policyHandbook } from './policyHandbook';

/**
 * Built-in sample documents, written for this project. `name` sets the editor's language. The first is the page's
 * first document and is bundled with it; the others' texts load when chosen (`loadText`), off the first paint.
 */
export interface SampleDocument {
  id: string;
  label: string;
  name: string;
  loadText(): Promise<string>;
}

/** The document a first visit opens on: its text is on the first-paint path. */
export const FIRST_SAMPLE = {
  id: 'handbook',
  label: 'Policy handbook',
  name: 'employee-handbook.md',
  text: policyHandbook,
  loadText: async () => policyHandbook,
} satisfies SampleDocument & { text: string };

export const SAMPLES: SampleDocument[] = [
  FIRST_SAMPLE,
  { id: 'source', label: 'Source file', name: 'rate-limiter.ts', loadText: () => import('./sourceFile').then((m) => m.sourceFile) },
  { id: 'python', label: 'Python module', name: 'invoices.py', loadText: () => import('./pythonModule').then((m) => m.pythonModule) },
  { id: 'api', label: 'API reference (HTML)', name: 'parcelpost-api.html', loadText: () => import('./apiReference').then((m) => m.apiReference) },
  { id: 'transcript', label: 'Meeting transcript', name: 'search-quality-sync.txt', loadText: () => import('./meetingTranscript').then((m) => m.meetingTranscript) },
  { id: 'multilingual', label: 'Multilingual', name: 'harbour-notes.txt', loadText: () => import('./multilingual').then((m) => m.multilingual) },
];
