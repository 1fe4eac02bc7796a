/**
 * Zip bombs: a DOCX is a zip package, and mammoth (through JSZip) inflates its XML parts in memory. Before it runs,
 * the package's central directory is read and the sizes its entries declare are added up: a package whose parts
 * would expand past the limits is refused at once, in one line. (A zip may lie about its sizes; JSZip then fails
 * the entry when the inflated data does not match, so lying does not get a larger part through unnoticed.)
 */
import { ImportError } from './contract';

/** The most the XML and other non-media parts of a DOCX may expand to, together. */
const MAX_DOCX_XML_BYTES = 48 * 1024 * 1024;
/** The most all parts of a DOCX (images included) may expand to, together. */
const MAX_DOCX_TOTAL_BYTES = 256 * 1024 * 1024;
/** The most entries a DOCX package may have. */
const MAX_DOCX_ENTRIES = 10_000;

const megabytes = (n: number) => `${(n / 1_000_000).toFixed(1)} MB`;

export interface ZipExpansion {
  entries: number;
  xmlBytes: number;
  totalBytes: number;
}

/** The declared expansion of a zip package, or null when it has no readable central directory. */
function zipExpansion(bytes: Uint8Array): ZipExpansion | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // End of central directory: 22 bytes plus a comment of up to 65,535, at the end of the file.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  let xmlBytes = 0;
  let totalBytes = 0;
  const decoder = new TextDecoder();
  let entries = 0;
  // ZIP64 packages (count 0xffff) are read by walking the directory until it ends.
  while (offset + 46 <= bytes.length && view.getUint32(offset, true) === 0x02014b50) {
    entries++;
    if (entries > MAX_DOCX_ENTRIES) break;
    let size = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const name = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    if (size === 0xffffffff) size = Number.MAX_SAFE_INTEGER; // a ZIP64 size: over every limit here
    totalBytes += size;
    if (!/^word\/media\//i.test(name)) xmlBytes += size;
    offset += 46 + nameLength + extraLength + commentLength;
  }
  if (entries === 0 && count > 0) return null;
  return { entries, xmlBytes, totalBytes };
}

/** Throws a one-line ImportError when the DOCX would expand past the limits. */
export function checkDocxExpansion(name: string, bytes: Uint8Array): void {
  const z = zipExpansion(bytes);
  if (!z) return; // not a readable zip: mammoth says so in its own words
  if (z.entries > MAX_DOCX_ENTRIES) throw new ImportError(name, `has more than ${MAX_DOCX_ENTRIES.toLocaleString('en-US')} parts; refused as a possible zip bomb`);
  if (z.xmlBytes > MAX_DOCX_XML_BYTES) {
    throw new ImportError(name, `would expand to ${megabytes(z.xmlBytes)} of document XML (the limit is ${megabytes(MAX_DOCX_XML_BYTES)}); refused as a possible zip bomb`);
  }
  if (z.totalBytes > MAX_DOCX_TOTAL_BYTES) {
    throw new ImportError(name, `would expand to ${megabytes(z.totalBytes)} (the limit is ${megabytes(MAX_DOCX_TOTAL_BYTES)}); refused as a possible zip bomb`);
  }
}
