/**
 * Makes untrusted text safe to quote in a violation message or excerpt: control characters become
 * spaces (wire text fields refuse them), the result is cut to `maxChars`, and it is well-formed UTF-16.
 * Excerpts are cut out of untrusted text at offsets a rule or a window chose, which can fall between the
 * halves of a surrogate pair (an emoji); a lone surrogate cannot be encoded as UTF-8, so RFC 8785 §3.2.2.2
 * (I-JSON, RFC 7493 §2.1) refuses to canonicalise the signed statement that quotes it, and the decision
 * could not be signed at all. So a cut never splits a pair (the high half is dropped with the low one),
 * and any other lone surrogate becomes U+FFFD, as a UTF-8 decoder shows it (WHATWG Encoding §4.1).
 * Written as a loop over code units rather than a regular expression with control-character ranges; text
 * without control characters or surrogates (most excerpts) is cut with one slice.
 */
export function oneLine(text: string, maxChars: number): string {
  if (!(maxChars > 0)) return '';
  // At most ⌈maxChars⌉ code units are kept; one fewer when the last would be the high half of a pair.
  let end = Math.min(text.length, Math.ceil(maxChars));
  if (end < text.length && isHigh(text.charCodeAt(end - 1)) && isLow(text.charCodeAt(end))) end--;
  let i = 0;
  while (i < end && !needsRewrite(text.charCodeAt(i))) i++;
  if (i === end) return text.slice(0, end);
  // Only the units rewritten are appended one by one; the stretches between them are copied as slices
  // (a multi-line excerpt otherwise became a chain of one-character strings, a hundred per excerpt).
  let out = '';
  /** Start of the stretch of `text` not yet copied to `out`. */
  let kept = 0;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isHigh(c) && i + 1 < end && isLow(text.charCodeAt(i + 1))) i++;
    else if (needsRewrite(c)) {
      out += text.slice(kept, i) + (isControl(c) ? ' ' : '\ufffd');
      kept = i + 1;
    }
  }
  return out + text.slice(kept, end);
}

function needsRewrite(c: number): boolean {
  return isControl(c) || isSurrogate(c);
}

function isControl(c: number): boolean {
  return c < 0x20 || c === 0x7f;
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function isSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdfff;
}
