/**
 * Makes untrusted text safe to quote in a violation message or excerpt: control characters become
 * spaces (wire text fields refuse them) and the result is cut to `maxChars`. Written as a loop over
 * code units rather than a regular expression with control-character ranges.
 */
export function oneLine(text: string, maxChars: number): string {
  let out = '';
  for (let i = 0; i < text.length && out.length < maxChars; i++) {
    const c = text.charCodeAt(i);
    out += c < 0x20 || c === 0x7f ? ' ' : text[i];
  }
  return out;
}
