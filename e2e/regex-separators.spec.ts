import { test, expect } from './fixtures';
import { controls, expectPainted, expectedChunks, openApp, optionsFromControls, pasteDocument, typeNumber } from './app';

// Sentences end in . ! or ? followed by spaces or a line break: a regex separator finds every end at once.
const text = Array.from({ length: 60 }, (_, i) =>
  [`Sentence ${i} states a rule.`, `Does rule ${i} apply to contractors?`, `It does, from day ${i}!`].join(i % 4 === 3 ? '\n' : '  '),
).join(' ');

test('regular-expression separators chunk like the engine, and a dangerous pattern is refused', async ({ page }) => {
  await openApp(page);
  await pasteDocument(page, text);
  const c = controls(page);
  const regexBox = page.getByRole('checkbox', { name: 'Separators are regular expressions', exact: true });
  await typeNumber(c.sizeBox, 120);
  await typeNumber(c.overlapBox, 0);
  await expect(regexBox).not.toBeChecked();

  // Typed with the box unticked, then ticked: the line is read as the pattern itself (\s is the regex class).
  await c.separators.fill('[.!?]\\s+');
  await regexBox.check();
  await expect(page).toHaveURL(/[?&]separators-are-regex=1(&|$)/);
  const options = { ...(await optionsFromControls(page, ['[.!?]\\s+'])), separatorsAreRegex: true };
  const lastGood = await expectedChunks(text, options);
  // The pattern really split on sentence ends (not on a literal "[.!?]\s+", which never occurs).
  expect(lastGood.length).toBeGreaterThan(10);
  expect(lastGood.every((chunk) => chunk.text.length <= 120)).toBe(true);
  await expectPainted(page, lastGood);
  await expect(c.alert).toHaveCount(0);

  // Nested quantifiers can backtrack for ever: core's one-line message, the last good chunks stay painted.
  await c.separators.fill('(a+)+');
  await expect(c.alert).toBeVisible();
  await expect(c.alert).toContainText('(a+)+');
  expect(((await c.alert.textContent()) ?? '').trim().split('\n')).toHaveLength(1);
  await expectPainted(page, lastGood);

  // LangChain compatibility splits on literal separators only: the checkbox gives way to a hint.
  await c.separators.fill('[.!?]\\s+');
  await expect(c.alert).toHaveCount(0);
  await c.compat.check();
  await expect(regexBox).toHaveCount(0);
  await expect(page.getByText('Regular-expression separators need LangChain compatibility off.')).toBeVisible();
});
