import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from './configSlice';
import { corpusRequest, corpusSnapshot, documentOfItem, runIsCurrent, setAsideLine, stampCorpus } from './documentSetLab';
import { fromGoldenQuestions } from './labGolden';
import { resetStore, useStore } from './store';

const get = () => useStore.getState();
const ref = (text: string, s: string) => ({ start: text.indexOf(s), end: text.indexOf(s) + s.length, content: s });

describe('golden questions and the open documents', () => {
  beforeEach(() => resetStore());

  it('on the one-document page a question belongs to it unless its corpus id names another document', () => {
    expect(documentOfItem({}, ['policy.md'])).toBe(0);
    expect(documentOfItem({ corpusId: 'document' }, ['policy.md'])).toBe(0);
    expect(documentOfItem({ corpusId: 'policy' }, ['policy.md'])).toBe(0);
    expect(documentOfItem({ corpusId: 'finance' }, ['policy.md'])).toBeNull();
    expect(documentOfItem({}, ['a.md', 'b.md'])).toBeNull();
    expect(documentOfItem({ corpusId: 'b' }, ['a.md', 'b.md'])).toBe(1);
  });

  it('questions of corpora not open are summarized in one line, never measured', () => {
    const text = 'Refunds are issued within 30 days.';
    get().setDocument(text, { name: 'policy.md' });
    const golden = fromGoldenQuestions([
      { question: 'When?', references: [ref(text, 'within 30 days')], corpusId: 'policy.md' },
      ...Array.from({ length: 3 }, (_, i) => ({ question: `f${i}`, references: [{ start: 0, end: 3, content: 'Ref' }], corpusId: i === 0 ? 'pubmed' : 'finance' })),
    ]);
    useStore.setState({ golden });
    const request = corpusRequest(get(), DEFAULT_CONFIG);
    expect(request.questions).toHaveLength(1);
    expect(request.corpus).toBeUndefined();
    expect(request.questions[0]!.corpusId).toBeUndefined();
    expect(request.setAside).toBe('3 questions name corpora that are not open: finance, pubmed (set aside, not scored)');
    expect(setAsideLine(golden, ['policy.md', 'finance.md', 'pubmed.txt'])).toBeNull();
  });

  it('a set opened from the shown document stamps its questions with its name; marking an answer moves a question to the document shown', () => {
    get().setDocument('alpha beta', { name: 'a.md' });
    get().addQuestion('what?');
    expect(stampCorpus(get().golden, 'a.md')![0]!.corpusId).toBe('a.md');
    useStore.setState({ golden: stampCorpus(get().golden, 'a.md')! });
    get().openDocumentsIn([{ name: 'b.md', text: 'gamma delta' }], { add: true });
    const id = get().golden[0]!.id;
    get().selectQuestion(id);
    get().setEditorSelection({ start: 0, end: 5 });
    get().markAnswer();
    expect(get().golden[0]).toMatchObject({ corpusId: 'b.md', references: [{ start: 0, end: 5, content: 'gamma' }] });
  });

  it('a corpus run stays current across switches, not after an edit or a configuration change', () => {
    get().openDocumentsIn([
      { name: 'a.md', text: 'alpha' },
      { name: 'b.md', text: 'beta' },
    ]);
    const run = { jobId: 1, corpus: { snapshot: corpusSnapshot(get(), get().config) } };
    const state = () => ({ ...get(), run, result: { jobId: 7 } });
    expect(runIsCurrent(state())).toBe(true);
    get().switchDocument(1);
    expect(runIsCurrent(state())).toBe(true);
    get().setDocument('beta!', { origin: 'editor' });
    expect(runIsCurrent(state())).toBe(false);
    get().setDocument('beta', { origin: 'editor' });
    expect(runIsCurrent(state())).toBe(true);
    useStore.setState({ config: { ...get().config, size: get().config.size + 1 } });
    expect(runIsCurrent(state())).toBe(false);
  });
});

describe('the set-aside line', () => {
  it('names questions without corpus id apart from those naming a corpus not open', () => {
    const golden = fromGoldenQuestions([
      { question: 'a', references: [], corpusId: 'finance' },
      { question: 'b', references: [] },
    ]);
    expect(setAsideLine(golden, ['x.md', 'y.md'])).toBe(
      '1 question names a corpus that is not open: finance (set aside, not scored); 1 question without corpus_id set aside: with 2 documents open, corpus_id must name one',
    );
  });
});
