import { beforeAll, describe, expect, it } from 'vitest';
import { codeFor, loadCopyAsCode } from '../../core/export/index';
import { validateOptions } from '../../core/options';
import { noteLines } from './codeNotes';

// The programs load on first use (the registry keeps them behind dynamic imports).
beforeAll(() => loadCopyAsCode());

describe('notes shown above the generated code', () => {
  it('joins a comment wrapped over lines, drops the summary and install lines, stops at the code', () => {
    const code = ['# Chunkscope configuration: strategy x.', '# First note wraps', '# onto this line.', '# Second note.', '# pip install foo', 'import json', '# not a note'].join('\n');
    expect(noteLines(code)).toEqual(['First note wraps onto this line.', 'Second note.']);
  });

  it("every note of core's programs is a whole sentence", () => {
    for (const target of ['langchain-js', 'langchain-python', 'llamaindex', 'chonkie'] as const) {
      for (const strategy of ['markdown', 'recursive', 'sentence', 'semantic'] as const) {
        for (const note of noteLines(codeFor(validateOptions({ strategy }), target))) expect(note, `${target} ${strategy}`).toMatch(/[.!?:)]$/);
      }
    }
  });
});
