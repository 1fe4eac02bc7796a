import { describe, expect, it } from 'vitest';
import { validateOptions } from '../options';
import { codeFor, loadCopyAsCode, reproducesExactly, targetsFor } from './copyAsCode';

// The programs are behind dynamic imports (each strategy's `copyAsCode` loader); this file loads none up front.
describe('loadCopyAsCode', () => {
  it('refuses with one line before the programs are loaded, then gives them', async () => {
    const options = validateOptions({ strategy: 'token', compat: 'langchain' });
    expect(() => codeFor(options, 'langchain-js')).toThrow(/^the token strategy's copy-as-code programs are not loaded \(await loadCopyAsCode\(\) first\)$/);
    expect(() => targetsFor(options)).toThrow(/not loaded/);
    await loadCopyAsCode('token');
    expect(targetsFor(options)).toContain('langchain-js');
    expect(codeFor(options, 'langchain-js')).toContain('TokenTextSplitter');
    expect(reproducesExactly(options, 'langchain-js')).toBe(true);
    // Loading one strategy loads only its programs.
    expect(() => codeFor(validateOptions({ strategy: 'markdown' }), 'llamaindex')).toThrow(/markdown strategy's copy-as-code programs are not loaded/);
  });
});
