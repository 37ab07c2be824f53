/**
 * Element builders: every text goes in as a text node (never as HTML), so nothing from the API is markup, and
 * with its invisible characters shown (visible()), so nothing from the API can hide or reorder what it shows.
 */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;

function apply(el: Element, attrs: Attrs, children: Child[]): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else
      el.setAttribute(
        name,
        value === true ? '' : name === 'aria-label' ? visible(String(value)) : String(value),
      );
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : visible(String(child)));
  }
}

/**
 * Characters that draw nothing or move other text: format characters (Unicode general category Cf: the bidi
 * embeddings, overrides and isolates of UAX #9 §2, zero-width spaces and joiners, the BOM, tag characters),
 * controls other than tab and line feed (Cc), the line and paragraph separators (Zl, Zp; a bidi paragraph
 * break), lone surrogates; the other default-ignorable code points (Unicode §5.21: the Hangul fillers
 * U+115F, U+1160, U+3164 and U+FFA0, which are letters that render as blanks, the combining grapheme
 * joiner, variation selectors); the Braille blank U+2800; and every space but U+0020 (no-break, em, thin,
 * ideographic …), which can pad a line until what follows it wraps to look like a line of its own.
 */
const INVISIBLE =
  /[\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\u2800]|[^\P{Zs} ]|[^\P{Cc}\t\n]/gu;

/**
 * The text with each invisible character written as its JSON escape (`\u202e`): a robot move or an action
 * shown to an operator cannot reverse, hide or run together the words around it, and a JSON text stays JSON.
 */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(
      '',
    ),
  );
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs, children);
  return el;
}

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  apply(el, attrs, children);
  return el;
}

/** Shows a line in the page's status bar (an aria-live region). */
export function say(text: string): void {
  const status = document.getElementById('status');
  if (status) status.textContent = visible(text);
}
