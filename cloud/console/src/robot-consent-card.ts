/**
 * One robot move waiting for consent: the move class, the peak planned torque against the high-torque threshold
 * and the joints' limits, the reasons, the tool path against the keep-out zones, and a countdown to the edge's
 * deadline. "Sign consent" makes (on first use) and enrols the browser's key, signs the statement here and
 * POSTs the token to the request's grantPath; the cloud checks and relays it, never signs.
 */
import type { RobotConsentItem } from '@pentagate/protocol';
import { api, session } from './api.js';
import { consentStatement, signConsent } from './consent-sign.js';
import { countdown } from './countdown.js';
import { h, say } from './dom.js';
import { enrolOperatorKey, operatorKeyFor } from './operator-key.js';
import { pathPlot } from './path-plot.js';

const OPERATOR_ITEM = 'pentagate.operatorId';

function torqueBar(valueNm: number, maxNm: number, over: boolean): HTMLElement {
  const bar = h('div', { class: 'bar', role: 'presentation' }, h('span', { class: over ? 'over' : '' }));
  (bar.firstChild as HTMLElement).style.width = `${Math.min(100, (valueNm / Math.max(maxNm, 1e-9)) * 100)}%`;
  return bar;
}

async function grant(item: RobotConsentItem): Promise<string> {
  const apiKey = session.key();
  if (!apiKey) throw new Error('sign in first');
  const key = await operatorKeyFor(apiKey);
  let operatorId = sessionStorage.getItem(OPERATOR_ITEM);
  if (!operatorId || sessionStorage.getItem(`${OPERATOR_ITEM}.kid`) !== key.kid) {
    const enrolled = await enrolOperatorKey(key);
    operatorId = enrolled.operatorId;
    sessionStorage.setItem(OPERATOR_ITEM, operatorId);
    sessionStorage.setItem(`${OPERATOR_ITEM}.kid`, key.kid);
  }
  const statement = consentStatement(
    {
      robotId: item.robotId,
      intentDigest: item.intentDigest,
      scope: item.request.scope,
      deadlineMs: Date.parse(item.expiresAt),
    },
    operatorId,
    Date.now(),
  );
  const token = await signConsent(statement, key);
  const out = await api<{ auditIndex: number }>('POST', item.grantPath, { token });
  return `consent for ${item.request.intentId} on ${item.robotId} signed by ${operatorId} (key ${key.kid}) and relayed (audit entry ${out.auditIndex})`;
}

export function robotConsentCard(item: RobotConsentItem, reload: () => Promise<void>): HTMLElement {
  const r = item.request;
  const limitNm = Math.max(...r.torqueLimitsNm, r.peakEffortNm);
  const titleId = `r-${item.intentDigest.slice(0, 16)}`;
  const sign = async () => {
    try {
      say(await grant(item));
    } catch (err) {
      say(`consent not relayed: ${(err as Error).message}`);
    }
    await reload();
    // the card is gone: keep keyboard focus in the view (the outcome is announced by the status line)
    document.getElementById('main')?.focus();
  };
  return h(
    'section',
    { class: 'card robot-consent', 'aria-labelledby': titleId, 'data-intent-digest': item.intentDigest },
    h('h3', { id: titleId }, `Robot ${item.robotId}: ${r.moveClass ?? r.intent.kind} (${r.scope})`),
    h(
      'div',
      { class: 'grid' },
      h(
        'div',
        {},
        h(
          'dl',
          {},
          h('dt', {}, 'Intent'),
          h('dd', {}, h('code', {}, r.intentId)),
          h('dt', {}, 'Intent digest'),
          h('dd', { class: 'digest' }, item.intentDigest),
          h('dt', {}, 'Peak torque'),
          h(
            'dd',
            {},
            `${r.peakEffortNm.toFixed(1)} N·m against threshold ${r.highTorqueThresholdNm.toFixed(1)} N·m, limits ${r.torqueLimitsNm.map((l) => l.toFixed(1)).join(' / ')} N·m`,
            torqueBar(r.peakEffortNm, limitNm, r.peakEffortNm > r.highTorqueThresholdNm),
          ),
          h('dt', {}, 'Why'),
          h('dd', {}, h('ul', {}, ...r.reasons.map((reason) => h('li', {}, reason)))),
          h('dt', {}, 'Deadline'),
          h('dd', {}, countdown(item.expiresAt, 'edge vetoes')),
        ),
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            {
              type: 'button',
              class: 'approve',
              'aria-label': `Sign consent for ${r.intentId} on ${item.robotId}`,
              onclick: () => void sign(),
            },
            'Sign consent',
          ),
        ),
      ),
      h(
        'figure',
        {},
        pathPlot(
          r,
          `Tool path of ${r.intentId} (top view, x-y metres) against ${r.zones.length} keep-out zone(s)`,
        ),
        h('figcaption', {}, `Tool path (blue) and keep-out zones (red), top view, ${r.pathM.length} points`),
      ),
    ),
  );
}
