// Writes the import fixtures under e2e/files/ (committed; rerun after changing this file):
//   node scripts/make-fixtures.mjs
// No network and no office suite: the PDFs come from a small PDF 1.4 writer below (standard Helvetica fonts,
// text operators, exact xref offsets; optional RC4 encryption), the DOCX from JSZip (a dependency of mammoth)
// with a minimal WordprocessingML package. The writers are exported so tests can make larger documents.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';

// ---------------------------------------------------------------------------------------------- PDF

const PAGE_WIDTH = 612; // US Letter, points
const PAGE_HEIGHT = 792;

/** A PDF string literal: backslash, parentheses escaped; only Latin-1 text is supported (standard fonts). */
function pdfString(text) {
  return '(' + text.replace(/[\\()]/g, (c) => '\\' + c) + ')';
}

/** RC4 (the PDF standard security handler, revision 2). */
function rc4(key, data) {
  const s = Array.from({ length: 256 }, (_, i) => i);
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  let i = 0;
  j = 0;
  for (let k = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

const md5 = (...parts) => createHash('md5').update(Buffer.concat(parts.map((p) => Buffer.from(p)))).digest();
const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const padPassword = (pw) => Buffer.concat([Buffer.from(pw, 'latin1'), PASSWORD_PAD]).subarray(0, 32);

/** Standard security handler, V1/R2 (40-bit RC4): the /Encrypt values and the file key (PDF 1.4 §3.5.2). */
function encryption(userPassword, ownerPassword, fileId) {
  const permissions = -4; // all permissions
  const ownerKey = md5(padPassword(ownerPassword)).subarray(0, 5);
  const O = rc4(ownerKey, padPassword(userPassword));
  const P = Buffer.alloc(4);
  P.writeInt32LE(permissions);
  const key = md5(padPassword(userPassword), O, P, fileId).subarray(0, 5);
  const U = rc4(key, PASSWORD_PAD);
  return { key, O, U, P: permissions };
}

function objectKey(fileKey, num) {
  const extra = Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0]);
  return md5(fileKey, extra).subarray(0, Math.min(fileKey.length + 5, 16));
}

/**
 * A PDF from pages of positioned text runs: `pages` is an array of arrays of { x, y, text, size, bold }.
 * Each run is one BT…ET with Tf/Td/Tj, so a text extractor sees one item per run.
 * options.userPassword: encrypt (RC4-40) so that opening needs that password.
 */
export function makePdf(pages, options = {}) {
  const fileId = md5('chunkscope fixture', String(pages.length), JSON.stringify(pages).slice(0, 200));
  const enc = options.userPassword ? encryption(options.userPassword, options.ownerPassword ?? 'owner', fileId) : null;
  // Object numbers: 1 catalog, 2 pages, 3 Helvetica, 4 Helvetica-Bold, then page/content pairs, then Encrypt.
  const objects = [];
  const pageIds = pages.map((_, i) => 5 + 2 * i);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  pages.forEach((runs, i) => {
    const pageId = pageIds[i];
    const contentId = pageId + 1;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contentId} 0 R >>`;
    const ops = runs
      .map((r) => `BT /${r.bold ? 'F2' : 'F1'} ${r.size ?? 11} Tf ${r.x} ${r.y} Td ${pdfString(r.text)} Tj ET`)
      .join('\n');
    let stream = Buffer.from(ops, 'latin1');
    if (enc) stream = rc4(objectKey(enc.key, contentId), stream);
    objects[contentId] = { dict: `<< /Length ${stream.length} >>`, stream };
  });
  let encryptId = null;
  if (enc) {
    encryptId = objects.length;
    objects[encryptId] = `<< /Filter /Standard /V 1 /R 2 /O <${enc.O.toString('hex')}> /U <${enc.U.toString('hex')}> /P ${enc.P} >>`;
  }

  const chunks = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0].length;
  const offsets = [];
  for (let num = 1; num < objects.length; num++) {
    offsets[num] = length;
    const obj = objects[num];
    const body =
      typeof obj === 'string'
        ? Buffer.from(`${num} 0 obj\n${obj}\nendobj\n`, 'latin1')
        : Buffer.concat([Buffer.from(`${num} 0 obj\n${obj.dict}\nstream\n`, 'latin1'), obj.stream, Buffer.from('\nendstream\nendobj\n', 'latin1')]);
    chunks.push(body);
    length += body.length;
  }
  const xrefOffset = length;
  // Each xref entry is exactly 20 bytes: 10-digit offset, space, 5-digit generation, space, n/f, CR LF.
  let xref = `xref\n0 ${objects.length}\n0000000000 65535 f\r\n`;
  for (let num = 1; num < objects.length; num++) xref += `${String(offsets[num]).padStart(10, '0')} 00000 n\r\n`;
  const id = fileId.toString('hex');
  xref +=
    `trailer\n<< /Size ${objects.length} /Root 1 0 R${encryptId ? ` /Encrypt ${encryptId} 0 R` : ''} /ID [<${id}> <${id}>] >>\n` +
    `startxref\n${xrefOffset}\n%%EOF\n`;
  chunks.push(Buffer.from(xref, 'latin1'));
  return new Uint8Array(Buffer.concat(chunks));
}

/** Greedy word wrap at a character budget (Helvetica 11pt fits about 95 characters in 6.5 inches). */
function wrap(text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Lays out blocks ({ heading } or { paragraph }) on pages with a running header and a "Page N of M" footer.
 * A paragraph that does not fit continues on the next page (that is how a paragraph crosses a page break).
 */
export function layoutDocument(blocks, { header, linesPerPage = 40, width = 90 }) {
  const pageLines = [[]];
  const LINE = 14;
  for (const block of blocks) {
    const lines = block.heading ? [{ text: block.heading, bold: true, size: 13 }] : wrap(block.paragraph, width).map((text) => ({ text }));
    // A heading never ends a page: move it to the next page when it and one line after it do not fit.
    if (block.heading && pageLines.at(-1).length + 2 > linesPerPage) pageLines.push([]);
    for (const line of lines) {
      if (pageLines.at(-1).length >= linesPerPage) pageLines.push([]);
      pageLines.at(-1).push(line);
    }
    // A blank line between blocks (not at the top of a page).
    if (pageLines.at(-1).length > 0 && pageLines.at(-1).length < linesPerPage) pageLines.at(-1).push(null);
  }
  const total = pageLines.length;
  return pageLines.map((lines, i) => {
    const runs = [{ x: 72, y: 750, text: header, size: 9 }];
    let y = 710;
    for (const line of lines) {
      if (line) runs.push({ x: 72, y, text: line.text, bold: line.bold, size: line.size ?? 11 });
      y -= LINE;
    }
    runs.push({ x: 270, y: 40, text: `Page ${i + 1} of ${total}`, size: 9 });
    return runs;
  });
}

/** The travel policy used by the import tests and e2e: headings, a paragraph that crosses a page break. */
export function travelPolicyBlocks() {
  return [
    { heading: 'Travel Policy' },
    { heading: '1. Purpose' },
    { paragraph: 'This policy explains how employees of ACME book, take and claim business travel. It applies to every trip paid for by the company, whether domestic or international, and to contractors who travel on company business.' },
    { heading: '2. Booking' },
    { paragraph: 'Book flights, trains and hotels through the travel desk at least fourteen days before departure. Economy class is the rule for flights under six hours; premium economy may be booked for longer flights with the approval of a director.' },
    { paragraph: 'Hotels must be within the city rate table published each January. A booking above the rate needs a written reason, for example a conference hotel or a late arrival, and the approval of the budget holder before the trip.' },
    { heading: '3. Expenses' },
    { paragraph: 'Keep every receipt. Claims are submitted within thirty days of return through the expense tool, with the receipts attached as photographs or PDF files. Alcohol, minibar charges, fines and personal entertainment are never reimbursed, and a claim that mixes personal and business costs must show the business share only. The finance team checks every claim against this policy and may ask for more detail; a claim that is not complete after two reminders is returned unpaid, and the traveller may submit it again once it is complete. Repeated late or incomplete claims are reported to the budget holder. Mileage for private cars is paid at the rate published by the tax authority for the year of travel, and only for the distance that exceeds the normal commute.' },
    { heading: '4. Safety' },
    { paragraph: 'Before an international trip, register the itinerary with the travel desk so that the company can reach you in an emergency. Check the travel advice of the foreign office for the destination and follow it.' },
    { heading: '5. International travel' },
    { heading: '5.1 Visas' },
    { paragraph: 'The travel desk arranges business visas. Apply at least six weeks before departure; some countries take longer.' },
    { heading: '5.2 Per diem' },
    { paragraph: 'A daily allowance covers meals and incidental costs abroad. The rates follow the government table for each country; no receipts are needed for costs covered by the allowance.' },
  ];
}

// --------------------------------------------------------------------------------------------- DOCX

const escapeXml = (s) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);
const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

function run(text, { bold = false } = {}) {
  return `<w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
}
function paragraph(runs, style) {
  return `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}${runs.join('')}</w:p>`;
}
function table(rows) {
  const cell = (text) => `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>${paragraph([run(text)])}</w:tc>`;
  return `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>${rows.map((r) => `<w:tr>${r.map(cell).join('')}</w:tr>`).join('')}</w:tbl>`;
}

/** A DOCX with Heading 1/2 paragraphs, bold text and a table (the minimal package Word and mammoth read). */
export async function makeDocx() {
  const body = [
    paragraph([run('Expense Guide')], 'Heading1'),
    paragraph([run('This guide explains which costs ACME reimburses. Read it with the '), run('Travel Policy', { bold: true }), run('.')]),
    paragraph([run('Meals')], 'Heading2'),
    paragraph([run('Meals are covered by the daily allowance when travelling abroad.')]),
    paragraph([run('Rates by city')], 'Heading2'),
    table([
      ['City', 'Hotel rate', 'Allowance'],
      ['Berlin', '150 EUR', '40 EUR'],
      ['London', '180 GBP', '45 GBP'],
      ['New York', '250 USD', '60 USD'],
    ]),
    paragraph([run('Rates are reviewed every January.')]),
  ].join('');
  const documentXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${W_NS}"><w:body>${body}<w:sectPr/></w:body></w:document>`;
  const style = (id, name) => `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`;
  const stylesXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles xmlns:w="${W_NS}">${style('Normal', 'Normal')}${style('Heading1', 'heading 1')}${style('Heading2', 'heading 2')}</w:styles>`;
  const contentTypes =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
    '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
    '</Types>';
  const rootRels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
    '</Relationships>';
  const documentRels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
    '</Relationships>';
  const zip = new JSZip();
  // A fixed date keeps the committed file byte-stable across runs.
  const date = new Date(Date.UTC(2026, 0, 1));
  zip.file('[Content_Types].xml', contentTypes, { date, createFolders: false });
  zip.file('_rels/.rels', rootRels, { date, createFolders: false });
  zip.file('word/document.xml', documentXml, { date, createFolders: false });
  zip.file('word/styles.xml', stylesXml, { date, createFolders: false });
  zip.file('word/_rels/document.xml.rels', documentRels, { date, createFolders: false });
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

// ---------------------------------------------------------------------------------------------- main

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'e2e', 'files');
  mkdirSync(out, { recursive: true });
  const policyPages = layoutDocument(travelPolicyBlocks(), { header: 'ACME Travel Policy', linesPerPage: 14 });
  writeFileSync(join(out, 'travel-policy.pdf'), makePdf(policyPages));
  writeFileSync(join(out, 'encrypted.pdf'), makePdf(policyPages.slice(0, 1), { userPassword: 'secret' }));
  writeFileSync(join(out, 'expense-guide.docx'), await makeDocx());
  console.log(`wrote travel-policy.pdf (${policyPages.length} pages), encrypted.pdf, expense-guide.docx to ${out}`);
}
