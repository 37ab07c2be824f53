/**
 * Audit entries of the tenant (`GET /api/v1/audit/entries`), newest first, optionally of one agent, one
 * proposal or one type (the route's filters; an identifier is matched exactly), each checked in the page on
 * demand: its inclusion
 * proof (`/api/v1/audit/inclusion`) under the latest signed checkpoint (`/api/v1/audit/checkpoint`), verified
 * with @pentagate/verifier against the pinned keys (pinned-keys.ts). The verdict and every check are shown.
 */
import { TrustStore } from '@pentagate/crypto';
import type { AuditEntry, InclusionProof } from '@pentagate/protocol';
import { type VerificationReport, verifyInclusionFile } from '@pentagate/verifier';
import { api } from './api.js';
import { h, say } from './dom.js';
import { pinnedKeys } from './pinned-keys.js';

/** Checks one entry; any refusal to read the inputs is a failed verification, with its reason. */
export async function verifyEntry(entry: AuditEntry): Promise<VerificationReport> {
  const trust = await pinnedKeys();
  const note = await api<string>('GET', '/api/v1/audit/checkpoint');
  // C2SP tlog-checkpoint: origin line, then the tree size in decimal
  const size = Number(note.split('\n')[1]);
  const proof = await api<InclusionProof>('GET', `/api/v1/audit/inclusion?index=${entry.index}&size=${size}`);
  try {
    return verifyInclusionFile(
      { ...proof, entry, checkpoint: note },
      TrustStore.fromDocument(trust.document, 'pinned keys'),
    );
  } catch (err) {
    return {
      valid: false,
      subject: `audit entry ${entry.index}`,
      checks: [],
      failures: [(err as Error).message],
    };
  }
}

function reportView(report: VerificationReport): HTMLElement {
  return h(
    'div',
    { class: 'report', role: 'status' },
    h(
      'p',
      { class: report.valid ? 'ok verdict' : 'bad verdict' },
      report.valid ? 'verified' : 'NOT verified',
    ),
    h(
      'ul',
      { class: 'checks' },
      ...report.checks.map((c) =>
        h('li', { class: c.ok ? 'ok' : 'bad' }, `${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`),
      ),
      ...(report.checks.length === 0 ? report.failures.map((f) => h('li', { class: 'bad' }, `✗ ${f}`)) : []),
    ),
  );
}

/** Entries per page; the route fills a page from the tenant's index, so only the last page holds fewer. */
const PAGE_SIZE = 20;

/**
 * An RFC 3339 time as two unbreakable parts, date and time of day, with a break allowed only between them
 * (the text stays the exact time, `T` and all): a narrow table puts the time under the date instead of
 * breaking it at a hyphen or a colon.
 */
function timeParts(at: string): Node[] {
  const t = at.indexOf('T');
  if (t < 0) return [h('span', { class: 'nowrap' }, at)];
  return [
    h('span', { class: 'nowrap' }, at.slice(0, t + 1)),
    h('wbr'),
    h('span', { class: 'nowrap' }, at.slice(t + 1)),
  ];
}

function entryRow(entry: AuditEntry): HTMLTableRowElement {
  const out = h('td', { class: 'verification' });
  const check = async () => {
    out.replaceChildren('checking…');
    try {
      out.replaceChildren(reportView(await verifyEntry(entry)));
    } catch (err) {
      out.replaceChildren(h('span', { class: 'bad' }, (err as Error).message));
      say((err as Error).message);
    }
  };
  return h(
    'tr',
    { 'data-index': entry.index },
    h('td', { class: 'short' }, entry.index),
    h('td', { class: 'at' }, ...timeParts(entry.at)),
    h('td', { class: 'short' }, entry.type),
    h('td', { class: 'actor' }, entry.actor ?? ''),
    h(
      'td',
      { class: 'short' },
      h(
        'button',
        { type: 'button', 'aria-label': `Verify audit entry ${entry.index}`, onclick: () => void check() },
        'Verify',
      ),
    ),
    out,
  );
}

/** The filters the form offers: the route's query parameter, the label shown, and a hint. */
const FILTERS = [
  {
    param: 'agentId',
    label: 'Agent',
    hint: "an agent id: its actor or data.agentId; a robot's entries: edge:<robot id>",
  },
  { param: 'proposalId', label: 'Proposal or decision', hint: 'data.proposalId or data.decisionId' },
  { param: 'type', label: 'Type', hint: 'e.g. decision, execution, approval, edge.verdict' },
] as const;

/** The filter inputs as a query string (`&agentId=…`), empty fields left out. */
function filterQuery(inputs: readonly HTMLInputElement[]): string {
  return inputs
    .map((input, i) => {
      const { param } = FILTERS[i]!;
      // entry types are lower-case names (decision, edge.verdict): `Decision` means the same one
      const value = param === 'type' ? input.value.trim().toLowerCase() : input.value.trim();
      return value === '' ? '' : `&${param}=${encodeURIComponent(value)}`;
    })
    .join('');
}

export async function renderAudit(main: HTMLElement): Promise<void> {
  const trust = await pinnedKeys();
  const body = h('tbody');
  const older = h('button', { type: 'button', id: 'older-entries' }, 'Older entries');
  const inputs = FILTERS.map(({ param }) =>
    h('input', {
      type: 'text',
      id: `audit-${param}`,
      name: param,
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-describedby': `audit-${param}-hint`,
    }),
  );
  const summary = h('p', { id: 'audit-summary', role: 'status' });
  let before: number | null = null;
  let filters = '';
  // A newer load replaces the table; an older one still running must not append to it.
  let generation = 0;
  const loadPage = async () => {
    const mine = generation;
    const query = `?limit=${PAGE_SIZE}${before === null ? '' : `&before=${before}`}${filters}`;
    const page = await api<{ entries: AuditEntry[]; next: number | null }>(
      'GET',
      `/api/v1/audit/entries${query}`,
    );
    if (mine !== generation) return;
    body.append(...page.entries.map(entryRow));
    before = page.next;
    older.hidden = page.next === null;
    const shown = body.childElementCount;
    summary.textContent =
      shown === 0
        ? filters === ''
          ? 'No audit entries yet.'
          : 'No audit entry matches these filters.'
        : `${shown} entr${shown === 1 ? 'y' : 'ies'} shown${filters === '' ? '' : ' (filtered)'}${page.next === null ? '' : '; older ones follow'}.`;
  };
  const reload = async () => {
    generation++;
    filters = filterQuery(inputs);
    before = null;
    body.replaceChildren();
    summary.textContent = 'loading…';
    await loadPage();
  };
  const fail = (err: Error) => {
    summary.textContent = err.message;
    say(err.message);
  };
  older.addEventListener('click', () => void loadPage().catch(fail));
  const form = h(
    'form',
    { class: 'audit-filters', 'aria-label': 'Filter audit entries' },
    ...FILTERS.map(({ param, label, hint }, i) =>
      h(
        'div',
        {},
        h('label', { for: `audit-${param}` }, label),
        inputs[i]!,
        h('small', { id: `audit-${param}-hint` }, hint),
      ),
    ),
    h('button', { type: 'submit' }, 'Filter'),
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          for (const input of inputs) input.value = '';
          void reload().catch(fail);
        },
      },
      'Clear filters',
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void reload().catch(fail);
  });
  await loadPage();
  main.replaceChildren(
    h('h2', {}, 'Audit'),
    h(
      'p',
      {},
      `Keys pinned ${trust.pinnedAt} (${trust.document.keys.length} key(s)). `,
      trust.changed ? h('strong', { class: 'bad' }, trust.changed) : null,
    ),
    form,
    summary,
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'audit' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { class: 'short' }, 'index'),
            h('th', { class: 'short' }, 'at'),
            h('th', { class: 'short' }, 'type'),
            h('th', { class: 'actor' }, 'actor'),
            h('th', { class: 'short' }, 'check'),
            h('th', { class: 'verification' }, 'result'),
          ),
        ),
        body,
      ),
    ),
    older,
  );
}
