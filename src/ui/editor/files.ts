import { useStore } from '../../state/store';

/** File types the editor opens (text formats; anything with NUL bytes is refused as binary). */
export const OPENABLE_FILES =
  '.txt,.md,.markdown,.html,.htm,.xml,.json,.csv,.rst,.tex,.py,.js,.mjs,.ts,.tsx,.jsx,.go,.rs,.java,.c,.h,.cpp,.hpp,.cs,.php,.rb,.scala,.swift,.kt,.sol,.proto,.css,.yaml,.yml,.toml,.sh';

/** Read a dropped or opened file into the document; binary files are refused with a notice. */
export async function readDroppedFile(file: File): Promise<void> {
  const text = await file.text();
  if (text.includes('\u0000')) {
    useStore.getState().setNotice(`“${file.name}” looks like a binary file; open a text, markdown, HTML or source file.`);
    return;
  }
  useStore.getState().setDocument(text, { name: file.name });
}
