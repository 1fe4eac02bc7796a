/**
 * What the format readers (./pdf, ./docx, ./zipLimits) share with the entry (./index): the options they take and the
 * error they throw. Its own leaf module so that the readers, which ./index loads with a dynamic import, never import
 * ./index back (`npm run lint` refuses import circles).
 */

export interface ImportOptions {
  /** PDF: drop lines repeated at the top or bottom of most pages (running headers, "Page 3 of 9"). */
  dropPageFurniture?: boolean;
  /** PDF: called after each page is read (for "page i of n" progress on large files). */
  onProgress?: (done: number, total: number) => void;
  /** PDF: lower caps than MAX_PDF_PAGES / MAX_PDF_TEXT (tests; a host with less memory). */
  maxPdfPages?: number;
  maxPdfText?: number;
}

/** A file that cannot be imported; the message is one line naming the file and the reason. */
export class ImportError extends Error {
  override name = 'ImportError';
  constructor(
    readonly fileName: string,
    readonly reason: string,
  ) {
    super(`“${fileName}” ${reason}`);
  }
}
