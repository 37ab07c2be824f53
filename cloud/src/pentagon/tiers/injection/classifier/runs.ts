/**
 * Long runs of one character (`####…` banners, `****` masks and separators, `!!!!!!`) shortened to three before
 * the classifier reads a text. A window's logit grows with the square root of how often one n-gram repeats
 * (Σ weights / √count, score.ts), so forty `#` of a code banner or a masked password scored as an injection
 * whenever `###` carried any positive weight. Three keep the n-gram itself (a `###` delimiter still reads as
 * one); only the repetition goes. Training and scoring both read views through this (views.ts).
 */

/** Longest run kept. */
export const MAX_RUN_CHARS = 3;

/** Index of the first code unit (at or after `from`) that repeats the three before it, or -1. */
function firstLongRun(text: string, from: number): number {
  let previous = -1;
  let repeats = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== previous) {
      previous = c;
      repeats = 0;
    } else if (++repeats === MAX_RUN_CHARS) {
      return i;
    }
  }
  return -1;
}

/**
 * Runs of one UTF-16 code unit (a surrogate pair is two different units, so a pair is never cut); a text
 * without a long run, which is nearly every text, is returned as it is after one pass.
 */
export function collapseRuns(text: string): string {
  let at = firstLongRun(text, 0);
  if (at < 0) return text;
  let out = '';
  let kept = 0;
  while (at >= 0) {
    const c = text.charCodeAt(at);
    let end = at + 1;
    while (end < text.length && text.charCodeAt(end) === c) end++;
    out += text.slice(kept, at);
    kept = end;
    // text[end] differs from the run, so the next run starts afresh there
    at = firstLongRun(text, end);
  }
  return out + text.slice(kept);
}
