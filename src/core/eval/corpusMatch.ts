/** Which open document a question's corpus_id names (pure: the page's lab and the CLI match questions the same way). */

/** The document a corpus id names: the id itself, or the id / file name with or without its extension. */
export function documentForCorpus(documents: readonly { id: string }[], corpusId: string | undefined): number | null {
  if (corpusId === undefined || corpusId === '') return documents.length === 1 ? 0 : null;
  const stem = (s: string) => s.replace(/\.[^./\\]*$/, '');
  const base = (s: string) => s.split(/[\\/]/).pop()!;
  const forms = (s: string) => [s, stem(s), base(s), stem(base(s))];
  const exact = documents.findIndex((d) => d.id === corpusId);
  if (exact >= 0) return exact;
  const wanted = new Set(forms(corpusId));
  const found = documents.findIndex((d) => forms(d.id).some((f) => wanted.has(f)));
  return found >= 0 ? found : null;
}
