/** A document for the Trusted Types spec: prose with markup-like text, which must be drawn as text. */
export const SAMPLE_TEXT_PROBE = Array.from(
  { length: 40 },
  (_, i) => `Trusted paragraph ${i}: <img src=x onerror=alert(${i})> & "quotes" stay text.\n\n`,
).join('');
