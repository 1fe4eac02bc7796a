// Types for the fixture writer (scripts/make-fixtures.mjs), used by the import tests.
export interface TextRun {
  x: number;
  y: number;
  text: string;
  size?: number;
  bold?: boolean;
}
export type Block = { heading: string } | { paragraph: string };
export function makePdf(pages: TextRun[][], options?: { userPassword?: string; ownerPassword?: string }): Uint8Array;
export function layoutDocument(blocks: Block[], options: { header: string; linesPerPage?: number; width?: number }): TextRun[][];
export function travelPolicyBlocks(): Block[];
export function makeDocx(): Promise<Uint8Array>;
