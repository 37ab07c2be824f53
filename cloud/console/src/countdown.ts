/**
 * Countdowns to expiry and hold ends: one ticker refreshes every `.countdown` element once a second, and
 * disables the decision buttons whose deadline has passed.
 */
import { disablePastDeadline } from './card-decision.js';
import { h } from './dom.js';

export function countdown(untilIso: string, what: string): HTMLElement {
  const el = h('span', { class: 'countdown', 'data-until': String(Date.parse(untilIso)), 'data-what': what });
  refresh(el, Date.now());
  return el;
}

function refresh(el: HTMLElement, nowMs: number): void {
  const left = Math.round((Number(el.dataset.until) - nowMs) / 1000);
  const what = el.dataset.what ?? '';
  el.textContent =
    left > 0 ? `${what} in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` : `${what} passed`;
  el.classList.toggle('over', left <= 0);
}

export function startCountdowns(): void {
  setInterval(() => {
    const now = Date.now();
    for (const el of document.querySelectorAll<HTMLElement>('.countdown')) refresh(el, now);
    disablePastDeadline(now);
  }, 1000);
}
