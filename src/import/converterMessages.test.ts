import { describe, expect, it } from 'vitest';
import { summariseConverterMessages } from './docx';

const style = (kind: string, name: string) => ({ type: 'warning', message: `Unrecognised ${kind} style: '${name}' (Style ID: ${name.replace(/\s/g, '')})` });

describe('mammoth warnings', () => {
  it('are one line: styles named once, the rest counted', () => {
    const line = summariseConverterMessages([
      style('paragraph', 'Title'),
      style('paragraph', 'Title'),
      style('run', 'Subtle Emphasis'),
      style('paragraph', 'Quote'),
      style('table', 'Grid Table 4'),
      { type: 'warning', message: 'An unrecognised element was ignored: w:sdt\nmore detail' },
      { type: 'info', message: 'not shown' },
    ]);
    expect(line).toBe(
      '4 Word styles without a markdown equivalent (“Title”, “Subtle Emphasis”, “Quote” and 1 more) kept as plain paragraphs; 1 other converter message (first: An unrecognised element was ignored: w:sdt).',
    );
    expect(line).not.toContain('\n');
    expect(line).not.toContain('Style ID');
  });

  it('say nothing when there is nothing to say', () => {
    expect(summariseConverterMessages([{ type: 'info', message: 'fine' }])).toBeNull();
  });
});
