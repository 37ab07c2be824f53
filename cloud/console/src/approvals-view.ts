/**
 * The approvals queue (`GET /api/v1/approvals`): kernel proposals waiting for a human (REQUIRE_HUMAN: approve
 * or deny; HELD_FOR_VETO: veto or deny before the hold ends), each bound to the action digest shown, and robot
 * moves waiting for consent, approved by signing in the page (robot-consent-card.ts).
 */
import type { RobotConsentItem } from '@pentagate/protocol';
import { ApiCallError, api } from './api.js';
import { decideOn, decisionButton, outcomeLine } from './card-decision.js';
import { countdown } from './countdown.js';
import { h, say, visible } from './dom.js';
import { robotConsentCard } from './robot-consent-card.js';

export interface KernelItem {
  id: string;
  status: 'REQUIRE_HUMAN' | 'HELD_FOR_VETO';
  actionType: string;
  agentId: string;
  actionDigest: string;
  action: unknown;
  createdAt: string;
  expiresAt: string;
  holdUntil?: string;
  violations: { code: string; message?: string; severity?: string }[];
  remediation?: string;
  proposedBy?: { keyId: string; boundAgent: string | null };
}

/**
 * Who proposed it: the API key, and whether that key is bound to the agent named. An unbound key may name any
 * agent of the tenant (and spend from its budget), so its agent name is a claim, and the card says so.
 */
function proposer(item: KernelItem): string {
  const by = item.proposedBy;
  if (!by) return 'not recorded (an older proposal)';
  if (by.boundAgent === null)
    return `key ${by.keyId}, not bound to an agent: the agent name above is its claim`;
  // a bound key acts only as its agent (agent-binding.ts), so the agent above is the one it is bound to
  return `key ${by.keyId}, bound to agent ${by.boundAgent}`;
}

interface Queue {
  items: KernelItem[];
  /** More proposals wait than `items` lists (the cloud lists held ones first, then the oldest). */
  moreItems?: boolean;
  /** Where the next page starts, when more wait. */
  nextCursor?: string;
  robotConsents: RobotConsentItem[];
}

/** The queue's page after `cursor`, or its first page (held proposals first, soonest hold end first). */
function queuePath(cursor: string | undefined): string {
  return cursor === undefined
    ? '/api/v1/approvals'
    : `/api/v1/approvals?cursor=${encodeURIComponent(cursor)}`;
}

const VERBS: Record<KernelItem['status'], ('approve' | 'deny' | 'veto')[]> = {
  REQUIRE_HUMAN: ['approve', 'deny'],
  HELD_FOR_VETO: ['veto', 'deny'],
};

function kernelCard(item: KernelItem): HTMLElement {
  const expiresAtMs = Date.parse(item.expiresAt);
  const decide = async (verb: string) => {
    const out = await api<{ state: string; auditIndex: number }>(
      'POST',
      `/api/v1/approvals/${encodeURIComponent(item.id)}/${verb}`,
      { actionDigest: item.actionDigest },
    );
    return `${item.id}: ${out.state} (audit entry ${out.auditIndex})`;
  };
  const titleId = `k-${item.id}`;
  const card = h(
    'section',
    { class: 'card kernel-item', 'aria-labelledby': titleId, 'data-id': item.id },
    h(
      'h3',
      { id: titleId },
      `${item.status === 'HELD_FOR_VETO' ? 'Held for veto' : 'Needs a human'}: ${item.actionType}`,
    ),
    h(
      'dl',
      {},
      h('dt', {}, 'Proposal'),
      h('dd', {}, h('code', {}, item.id)),
      h('dt', {}, 'Agent'),
      h('dd', {}, item.agentId),
      h('dt', {}, 'Proposed by'),
      h('dd', { class: item.proposedBy?.boundAgent ? '' : 'bad' }, proposer(item)),
      h('dt', {}, 'Action digest'),
      h('dd', { class: 'digest' }, item.actionDigest),
      h('dt', {}, 'Violations'),
      h(
        'dd',
        {},
        item.violations.length === 0
          ? 'none'
          : h(
              'ul',
              {},
              ...item.violations.map((v) =>
                h(
                  'li',
                  {},
                  h('code', {}, v.code),
                  // the kernel's messages open with their code; show it once
                  v.message ? ` ${v.message.replace(`${v.code}: `, '')}` : '',
                ),
              ),
            ),
      ),
      item.remediation ? h('dt', {}, 'Remediation') : null,
      item.remediation ? h('dd', {}, item.remediation) : null,
      h('dt', {}, 'Time'),
      h(
        'dd',
        {},
        item.holdUntil ? countdown(item.holdUntil, 'executes', 'hold over: executable') : null,
        item.holdUntil ? ' · ' : null,
        countdown(item.expiresAt, 'expires', 'expired'),
      ),
    ),
    // open: what is approved (tool, arguments, amounts, recipients) is on the card's face, not one click away
    h(
      'details',
      { open: true },
      h('summary', {}, 'Action as proposed'),
      h('pre', {}, h('code', {}, JSON.stringify(item.action, null, 2))),
    ),
    h(
      'div',
      { class: 'actions' },
      ...VERBS[item.status].map((verb) =>
        decisionButton(
          {
            class: verb,
            'aria-label': `${verb} ${item.actionType} ${item.id}`,
            onclick: () => void decideOn(card, expiresAtMs, () => decide(verb)),
          },
          verb[0]!.toUpperCase() + verb.slice(1),
          expiresAtMs,
        ),
      ),
    ),
    outcomeLine(),
  );
  return card;
}

/**
 * How often the view checks whether the queue changed (it says so; it never re-renders under the operator, a
 * decided card included: the queue is redrawn only on Refresh).
 */
const WATCH_MS = 3000;
let watcher = new AbortController();

function queueKeys(queue: Queue): string {
  return [...queue.items.map((i) => i.id), ...queue.robotConsents.map((c) => c.intentDigest)]
    .sort()
    .join(',');
}

/**
 * Polls the queue; when it differs from what is shown, `notice` says so and points at Refresh. When the check
 * fails (the cloud is unreachable, the key was revoked) it says that too: a queue that can no longer be
 * checked must not look current.
 */
function watchQueue(shown: Queue, path: string, notice: HTMLElement, signal: AbortSignal): void {
  const timer = setInterval(() => {
    if (signal.aborted || !notice.isConnected) return clearInterval(timer);
    void api<Queue>('GET', path)
      .then((now) => {
        notice.textContent =
          queueKeys(now) === queueKeys(shown) ? '' : 'The queue changed: press Refresh to see it.';
      })
      .catch((err: Error) => {
        if (signal.aborted) return;
        const revoked = err instanceof ApiCallError && (err.status === 401 || err.status === 403);
        notice.textContent = visible(
          `${revoked ? 'This key is no longer accepted' : 'The queue cannot be checked'} (${err.message}): what is shown may be out of date.`,
        );
      });
  }, WATCH_MS);
}

/**
 * Says, above the cards, that the list is cut: held proposals run when their hold ends unless vetoed, so the
 * ones not shown must not pass for none. The cloud lists held ones first, so a flood of other proposals cannot
 * push one off the first page; "Next page" reaches the rest.
 */
function moreWaiting(queue: Queue): HTMLElement[] {
  if (!queue.moreItems) return [];
  return [
    h(
      'p',
      { id: 'more-waiting', role: 'alert', class: 'over' },
      `More agent actions wait than the ${queue.items.length} shown (held ones first, then the oldest): decide these and press Refresh, or Next page for the rest.`,
    ),
  ];
}

/** "Next page" while more wait, and "First page" once past it: each renders that page in place of this one. */
function pageButtons(
  main: HTMLElement,
  queue: Queue,
  cursor: string | undefined,
  notice: HTMLElement,
): HTMLElement[] {
  const go = (id: string, label: string, to: string | undefined) =>
    h(
      'button',
      {
        type: 'button',
        id,
        onclick: () =>
          void renderApprovals(main, to).catch((err: Error) => {
            notice.textContent = visible(
              `Loading the page failed (${err.message}): what is shown may be out of date.`,
            );
            say(err.message);
          }),
      },
      label,
    );
  const buttons: HTMLElement[] = [];
  if (cursor !== undefined) buttons.push(go('first-approvals', 'First page', undefined));
  if (queue.nextCursor !== undefined) buttons.push(go('next-approvals', 'Next page', queue.nextCursor));
  return buttons;
}

export async function renderApprovals(main: HTMLElement, cursor?: string): Promise<void> {
  const path = queuePath(cursor);
  const queue = await api<Queue>('GET', path);
  // only now that there is a new queue to watch: a failed Refresh leaves the old view watched
  watcher.abort();
  watcher = new AbortController();
  const signal = watcher.signal;
  const notice = h('p', { id: 'queue-changed', role: 'status', class: 'over' });
  const refresh = h(
    'button',
    {
      type: 'button',
      id: 'refresh-approvals',
      onclick: () =>
        void renderApprovals(main, cursor).catch((err: Error) => {
          notice.textContent = visible(`Refresh failed (${err.message}): what is shown may be out of date.`);
          say(err.message);
        }),
    },
    'Refresh',
  );
  main.replaceChildren(
    h('h2', {}, 'Approvals'),
    refresh,
    notice,
    h(
      'h3',
      {},
      `Agent actions (${queue.items.length}${cursor === undefined ? '' : ' after earlier pages'}${queue.moreItems ? ' shown, more waiting' : ''})`,
    ),
    ...moreWaiting(queue),
    ...(queue.items.length ? queue.items.map(kernelCard) : [h('p', {}, 'Nothing waiting.')]),
    ...pageButtons(main, queue, cursor, notice),
    h('h3', {}, `Robot moves waiting for consent (${queue.robotConsents.length})`),
    ...(queue.robotConsents.length
      ? queue.robotConsents.map(robotConsentCard)
      : [h('p', {}, 'Nothing waiting.')]),
  );
  watchQueue(queue, path, notice, signal);
}
