/** The worker-thread entry of the corpus pool (piscina): one task is one document (./document.ts). */
import { processDocument, type DocumentResult, type DocumentTask } from './document';

export default function run(task: DocumentTask): Promise<DocumentResult> {
  return processDocument(task);
}
