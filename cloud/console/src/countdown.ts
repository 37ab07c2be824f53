/**
 * Countdowns to expiry and hold ends: one ticker refreshes every `.countdown` element once a second, and
 * disables the decision buttons whose deadline has passed.
 */
import { disablePastDeadline } from './card-decision.js';
import { h } from './dom.js';

/** `what` reads before the deadline ("expires" in 0:42), `past` after it ("expired"). */
export function countdown(untilIso: string, what: string, past: string): HTMLElement {
  const el = h('span', {
    class: 'countdown',
    'data-until': String(Date.parse(untilIso)),
    'data-what': what,
    'data-past': past,
  });
  refresh(el, Date.now());
  return el;
}

function refresh(el: HTMLElement, nowMs: number): void {
  const left = Math.round((Number(el.dataset.until) - nowMs) / 1000);
  el.textContent =
    left > 0
      ? `${el.dataset.what ?? ''} in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
      : (el.dataset.past ?? '');
  el.classList.toggle('over', left <= 0);
}

export function startCountdowns(): void {
  setInterval(() => {
    const now = Date.now();
    for (const el of document.querySelectorAll<HTMLElement>('.countdown')) refresh(el, now);
    disablePastDeadline(now);
  }, 1000);
}
