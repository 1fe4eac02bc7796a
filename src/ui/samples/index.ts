import { apiReference } from './apiReference';
import { meetingTranscript } from './meetingTranscript';
import { multilingual } from './multilingual';
import { policyHandbook } from './policyHandbook';
import { pythonModule } from './pythonModule';
import { sourceFile } from './sourceFile';

/** Built-in sample documents, written for this project. `name` sets the editor's language. */
export interface SampleDocument {
  id: string;
  label: string;
  name: string;
  text: string;
}

export const SAMPLES: SampleDocument[] = [
  { id: 'handbook', label: 'Policy handbook', name: 'employee-handbook.md', text: policyHandbook },
  { id: 'source', label: 'Source file', name: 'rate-limiter.ts', text: sourceFile },
  { id: 'python', label: 'Python module', name: 'invoices.py', text: pythonModule },
  { id: 'api', label: 'API reference (HTML)', name: 'parcelpost-api.html', text: apiReference },
  { id: 'transcript', label: 'Meeting transcript', name: 'search-quality-sync.txt', text: meetingTranscript },
  { id: 'multilingual', label: 'Multilingual', name: 'harbour-notes.txt', text: multilingual },
];
