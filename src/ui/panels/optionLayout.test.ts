import { describe, expect, it } from 'vitest';
import { OPTION_TABLE, type OptionGroup } from '../../core/describe';
import { GENERIC_KINDS, genericallyDrawn, HAND_DRAWN } from './optionLayout';

const GROUPS: OptionGroup[] = ['splitting', 'semantic', 'structure', 'headers', 'retrieval', 'document', 'page', 'eval'];

describe('the page draws every option control once', () => {
  it('each option with a control is either drawn from its row or named, with a reason, among the hand-drawn ones', () => {
    const generic = GROUPS.flatMap((g) => genericallyDrawn(g).map((s) => s.name));
    for (const spec of OPTION_TABLE.filter((s) => s.control && !s.document)) {
      const byHand = spec.name in HAND_DRAWN;
      expect(byHand !== generic.includes(spec.name), spec.name).toBe(true);
      if (byHand) expect(HAND_DRAWN[spec.name as keyof typeof HAND_DRAWN]!.length).toBeGreaterThan(10);
    }
  });

  it('a generically drawn option has a kind GroupFields draws', () => {
    for (const spec of GROUPS.flatMap(genericallyDrawn)) expect(GENERIC_KINDS.has(spec.control!.kind), `${spec.name}: ${spec.control!.kind}`).toBe(true);
  });

  it('the tables-as-text, raw HTML and min fragment controls are drawn from their rows', () => {
    expect(genericallyDrawn('structure').map((s) => s.name)).toEqual(expect.arrayContaining(['rowsAsText', 'minFragment', 'rawHtml']));
  });

  it('names only options of the table', () => {
    const names = new Set(OPTION_TABLE.map((s) => s.name));
    for (const name of Object.keys(HAND_DRAWN)) expect(names.has(name as never), name).toBe(true);
  });
});
