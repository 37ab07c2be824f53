/**
 * Makes untrusted text safe to quote in a violation message or excerpt: control characters become
 * spaces (wire text fields refuse them) and the result is cut to `maxChars`. Written as a loop over
 * code units rather than a regular expression with control-character ranges; text without control
 * characters (most excerpts) is cut with one slice instead of being rebuilt a code unit at a time.
 */
export function oneLine(text: string, maxChars: number): string {
  if (!(maxChars > 0)) return '';
  // The loop below stops once `out` is at least maxChars long, so it keeps ⌈maxChars⌉ code units.
  const end = Math.min(text.length, Math.ceil(maxChars));
  let i = 0;
  while (i < end && !isControl(text.charCodeAt(i))) i++;
  if (i === end) return text.slice(0, end);
  let out = text.slice(0, i);
  for (; i < end; i++) out += isControl(text.charCodeAt(i)) ? ' ' : text[i];
  return out;
}

function isControl(c: number): boolean {
  return c < 0x20 || c === 0x7f;
}
