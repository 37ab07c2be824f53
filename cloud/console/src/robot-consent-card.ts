/**
 * One robot move waiting for consent: the move class, the peak planned torque against the high-torque threshold
 * and the joints' limits, the reasons, the tool path against the keep-out zones, and a countdown to the edge's
 * deadline. "Sign consent" makes (on first use) and enrols the browser's key, signs the statement here and
 * POSTs the token to the request's grant route ("Deny" signs a denial the same way, for the deny route: the
 * edge vetoes the move at once); the cloud checks and relays it, never signs. What the card
 * names (robot, intent id, move class, kind) is read from the intent itself, and the page signs only when that
 * intent hashes to the digest it signs: the cloud cannot show one move and have another consented to.
 */
import { jcsDigestHex } from '@pentagate/crypto';
import {
  type ConsentDecision,
  type DsseEnvelope,
  type RobotConsentItem,
  understatedPeakEffort,
} from '@pentagate/protocol';
import { ApiCallError, api, session } from './api.js';
import { decideOn, decisionButton, outcomeLine } from './card-decision.js';
import { consentStatement, signConsent } from './consent-sign.js';
import { countdown } from './countdown.js';
import { h } from './dom.js';
import { enrolOperatorKey, operatorKeyFor } from './operator-key.js';
import { pathPlot } from './path-plot.js';

const OPERATOR_ITEM = 'pentagate.operatorId';

function torqueBar(valueNm: number, maxNm: number, over: boolean): HTMLElement {
  const bar = h('div', { class: 'bar', role: 'presentation' }, h('span', { class: over ? 'over' : '' }));
  (bar.firstChild as HTMLElement).style.width = `${Math.min(100, (valueNm / Math.max(maxNm, 1e-9)) * 100)}%`;
  return bar;
}

/** Why the page must not sign this item (its parts disagree), or undefined when they agree. */
export function signingProblem(item: RobotConsentItem): string | undefined {
  const r = item.request;
  const digest = jcsDigestHex(r.intent);
  if (digest !== item.intentDigest || r.intentDigest !== item.intentDigest) {
    return `the intent shown hashes to ${digest}, not to the digest to sign ${item.intentDigest}`;
  }
  if (r.intent.robotId !== item.robotId || r.robotId !== item.robotId) {
    return `the intent is for robot ${r.intent.robotId}, the request for ${item.robotId}`;
  }
  // the card draws the request's peak torque, which the edge states and nobody signs
  const understated = understatedPeakEffort(r);
  if (understated) return `the request understates the move's torque: ${understated}`;
  if (Date.parse(item.expiresAt) !== r.deadlineMs) {
    return `the deadline ${item.expiresAt} is not the edge's ${new Date(r.deadlineMs).toISOString()}`;
  }
  return undefined;
}

/** A token signed for one card, kept so that a retry after a failed POST sends it again rather than re-signing. */
interface Signed {
  token: DsseEnvelope;
  expiresAtMs: number;
  operatorId: string;
  kid: string;
}

/** Tokens that will no longer be accepted are signed again (a margin for the trip to the cloud and the edge). */
const RESIGN_MARGIN_MS = 5_000;

async function sign(item: RobotConsentItem, decision: ConsentDecision): Promise<Signed> {
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
  // checked again after the enrolment's round trip: nothing is signed for a card that is wrong or too late
  const problem = signingProblem(item);
  if (problem) throw new Error(`not signed: ${problem}`);
  const nowMs = Date.now();
  const deadlineMs = Date.parse(item.expiresAt);
  if (nowMs >= deadlineMs) throw new Error(`not signed: the deadline passed at ${item.expiresAt}`);
  const statement = consentStatement(
    { robotId: item.robotId, intentDigest: item.intentDigest, scope: item.request.scope, deadlineMs },
    operatorId,
    nowMs,
    decision,
  );
  const token = await signConsent(statement, key);
  return { token, expiresAtMs: statement.expiresAt, operatorId, kid: key.kid };
}

/**
 * The grant or deny route of the item's robot and digest, built here rather than taken from the served
 * grantPath / denyPath.
 */
function decisionPathOf(item: RobotConsentItem, decision: ConsentDecision): string {
  return `/api/v1/fleet/robots/${encodeURIComponent(item.robotId)}/consent-requests/${item.intentDigest}/${decision}`;
}

export function robotConsentCard(item: RobotConsentItem): HTMLElement {
  const r = item.request;
  const intent = r.intent;
  const limitNm = Math.max(...r.torqueLimitsNm, r.peakEffortNm);
  const titleId = `r-${item.intentDigest.slice(0, 16)}`;
  const deadlineMs = Date.parse(item.expiresAt);
  const problem = signingProblem(item);
  // one token kept per decision: a retry of Deny never sends the grant signed before it, nor the other way
  const signed = new Map<ConsentDecision, Signed>();
  const decide = (decision: ConsentDecision) => async (): Promise<string> => {
    let kept = signed.get(decision);
    if (!kept || kept.expiresAtMs <= Date.now() + RESIGN_MARGIN_MS) {
      kept = await sign(item, decision);
      signed.set(decision, kept);
    }
    const { token, operatorId, kid } = kept;
    const what = decision === 'grant' ? 'Consent' : 'Denial';
    try {
      const out = await api<{ auditIndex: number }>('POST', decisionPathOf(item, decision), { token });
      return decision === 'grant'
        ? `Consent for ${intent.intentId} on ${item.robotId} signed by ${operatorId} (key ${kid}) and relayed (audit entry ${out.auditIndex}).`
        : `Denial of ${intent.intentId} on ${item.robotId} signed by ${operatorId} (key ${kid}) and relayed: the edge vetoes the move (audit entry ${out.auditIndex}).`;
    } catch (err) {
      // the cloud refused this token (400): a retry signs a new one; otherwise a retry sends this one again
      if (err instanceof ApiCallError && err.status === 400) signed.delete(decision);
      throw new Error(`${what} not relayed: ${(err as Error).message}`, { cause: err });
    }
  };
  const card = h(
    'section',
    { class: 'card robot-consent', 'aria-labelledby': titleId, 'data-intent-digest': item.intentDigest },
    h(
      'h3',
      { id: titleId },
      `Robot ${item.robotId}: ${intent.moveClass ?? 'default'} ${intent.kind} (${r.scope})`,
    ),
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
          h('dd', {}, h('code', {}, intent.intentId)),
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
          h('dd', {}, countdown(item.expiresAt, 'edge vetoes', 'vetoed by the edge')),
        ),
        h(
          'details',
          {},
          h('summary', {}, 'Intent as signed (its SHA-256 is the intent digest)'),
          h('pre', {}, h('code', {}, JSON.stringify(intent, null, 2))),
        ),
        problem
          ? h('p', { class: 'bad', role: 'alert' }, `Not signable: ${problem}.`)
          : h(
              'div',
              { class: 'actions' },
              decisionButton(
                {
                  class: 'approve',
                  'aria-label': `Sign consent for ${intent.intentId} on ${item.robotId}`,
                  onclick: () => void decideOn(card, deadlineMs, decide('grant')),
                },
                'Sign consent',
                deadlineMs,
              ),
              decisionButton(
                {
                  class: 'deny',
                  'aria-label': `Deny ${intent.intentId} on ${item.robotId}`,
                  onclick: () => void decideOn(card, deadlineMs, decide('deny')),
                },
                'Deny',
                deadlineMs,
              ),
            ),
        outcomeLine(),
      ),
      h(
        'figure',
        {},
        pathPlot(
          r,
          `Tool path of ${intent.intentId} (top view, x-y metres) against ${r.zones.length} keep-out zone(s)`,
        ),
        h(
          'figcaption',
          {},
          `Tool path (blue), keep-out zones at its height (red) and above or below it (dashed), top view, ${r.pathM.length} points`,
        ),
      ),
    ),
  );
  return card;
}
