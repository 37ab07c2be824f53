/**
 * One decision taken on a queue card (approve, deny, veto, sign consent). The card's buttons are disabled
 * while it is under way, so a double click or a held Enter decides once; the outcome is written into the card,
 * which stays where it is (the queue is redrawn only on Refresh), so a second click never lands on the card
 * that would have moved into its place; past the card's deadline nothing is sent or signed.
 */
import { ApiCallError } from './api.js';
import { h, say } from './dom.js';

/** The line under a card's buttons that tells what became of the decision. */
export function outcomeLine(): HTMLElement {
  return h('p', { class: 'outcome', tabindex: -1 });
}

/** A decision button, disabled by the countdown ticker once `deadlineMs` has passed. */
export function decisionButton(
  attrs: { class: string; 'aria-label': string; onclick: () => void },
  label: string,
  deadlineMs: number,
): HTMLButtonElement {
  return h('button', { type: 'button', 'data-deadline': deadlineMs, ...attrs }, label);
}

/** Disables the buttons whose deadline has passed (called by the countdown ticker every second). */
export function disablePastDeadline(nowMs: number): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-deadline]')) {
    if (nowMs >= Number(button.dataset.deadline)) button.disabled = true;
  }
}

/** A refusal that trying again cannot change: the item is gone or already decided (404, 409). */
function settled(err: unknown): boolean {
  const refusal = err instanceof ApiCallError ? err : (err as Error).cause;
  return refusal instanceof ApiCallError && (refusal.status === 404 || refusal.status === 409);
}

export async function decideOn(
  card: HTMLElement,
  deadlineMs: number,
  act: () => Promise<string>,
): Promise<void> {
  if (card.dataset.decision === 'pending' || card.dataset.decision === 'done') return;
  const outcome = card.querySelector<HTMLElement>('.outcome');
  const buttons = [...card.querySelectorAll<HTMLButtonElement>('button[data-deadline]')];
  const finish = (state: 'done' | '', text: string, ok: boolean) => {
    card.dataset.decision = state;
    card.classList.toggle('decided', state === 'done' && ok);
    for (const button of buttons) button.disabled = state === 'done' || Date.now() >= deadlineMs;
    if (outcome) {
      outcome.className = `outcome ${ok ? 'ok' : 'bad'}`;
      outcome.textContent = text;
      outcome.focus();
    }
    say(text);
  };
  if (Date.now() >= deadlineMs) {
    return finish('done', 'The deadline has passed: nothing was sent.', false);
  }
  card.dataset.decision = 'pending';
  for (const button of buttons) button.disabled = true;
  if (outcome) {
    outcome.className = 'outcome';
    outcome.textContent = 'sending…';
    // the pressed button is disabled now: keep keyboard focus on the card, never on another button
    outcome.focus();
  }
  try {
    finish('done', await act(), true);
  } catch (err) {
    finish(settled(err) ? 'done' : '', (err as Error).message, false);
  }
}
