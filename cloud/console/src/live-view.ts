/**
 * Live verdicts per robot from `GET /api/v1/fleet/live` (Server-Sent Events, WHATWG HTML §9.2). EventSource
 * cannot send an Authorization header, so the stream is read with fetch() and a stream reader and parsed
 * here; leaving the view aborts it.
 */
import { api, authHeaders } from './api.js';
import { h, say, visible } from './dom.js';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;
const MAX_ROWS_PER_ROBOT = 50;
/**
 * The cloud writes a keepalive comment every 15 s (cloud/src/fleet/live-stream.ts): a stream silent for two of
 * them and a margin is taken for lost (a network that drops without a reset leaves fetch waiting for ever, the
 * view saying "connected" while no STOP can reach it) and reopened.
 */
export const SILENCE_LIMIT_MS = 40_000;

interface LiveEvent {
  type: 'verdict' | 'alarm' | 'consent';
  robotId: string;
  outcome?: string;
  violations?: string[];
  atMs: number;
  intentId?: string;
  commandSeq?: number;
  message?: string;
  state?: string;
}

/** Splits an SSE byte stream into events (`event:` and `data:` lines, a blank line ends one). */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (type: string, data: string) => void,
  onBytes: () => void = () => {},
): Promise<void> {
  const reader = body
    .pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>)
    .getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onBytes();
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) type = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (data.length) onEvent(type, data.join('\n'));
      end = buffer.indexOf('\n\n');
    }
  }
}

function row(e: LiveEvent): HTMLTableRowElement {
  const what =
    e.type === 'verdict'
      ? h('span', { class: e.outcome === 'signed' ? 'ok' : 'bad' }, e.outcome ?? '')
      : e.type === 'alarm'
        ? h('span', { class: 'bad' }, `alarm: ${e.message ?? ''}`)
        : `consent ${e.state ?? ''}`;
  return h(
    'tr',
    { class: `live-${e.type}` },
    h('td', {}, new Date(e.atMs).toISOString().slice(11, 23)),
    h('td', {}, what),
    h('td', {}, e.violations?.join(', ') || '—'),
    h('td', {}, e.intentId ?? (e.commandSeq !== undefined ? `seq ${e.commandSeq}` : '')),
  );
}

/** The robot filter: every robot of the tenant, or one (`?robot=`); choosing reopens the stream. */
function robotFilter(
  robotId: string | undefined,
  choose: (robotId: string | undefined) => void,
): HTMLElement {
  const select = h(
    'select',
    { id: 'live-robot', onchange: () => choose(select.value || undefined) },
    h('option', { value: '' }, 'every robot'),
    robotId ? h('option', { value: robotId, selected: true }, robotId) : null,
  );
  void api<{ robots: { robotId: string; retiredAt: string | null }[] }>('GET', '/api/v1/fleet/robots')
    .then(({ robots }) => {
      for (const r of robots) {
        if (r.robotId !== robotId && r.retiredAt === null)
          select.append(h('option', { value: r.robotId }, r.robotId));
      }
    })
    .catch((err: Error) => say(`robot list: ${err.message}`));
  return h('p', {}, h('label', { for: 'live-robot' }, 'Robot '), select);
}

export function renderLive(
  main: HTMLElement,
  signal: AbortSignal,
  robotId: string | undefined,
  choose: (robotId: string | undefined) => void,
): void {
  const robots = new Map<string, HTMLTableSectionElement>();
  const board = h('div', { id: 'live-board' });
  const state = h('p', { id: 'live-state' }, 'connecting…');
  main.replaceChildren(h('h2', {}, 'Live verdicts'), robotFilter(robotId, choose), state, board);
  const url = robotId ? `/api/v1/fleet/live?robot=${encodeURIComponent(robotId)}` : '/api/v1/fleet/live';
  const tableOf = (robotId: string) => {
    let body = robots.get(robotId);
    if (!body) {
      body = h('tbody');
      robots.set(robotId, body);
      board.append(
        h(
          'section',
          { class: 'card', 'data-robot': robotId, 'aria-label': `robot ${robotId}` },
          h('h3', {}, `Robot ${robotId}`),
          h(
            'table',
            {},
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', {}, 'time (UTC)'),
                h('th', {}, 'verdict'),
                h('th', {}, 'failing vertex'),
                h('th', {}, 'intent / command'),
              ),
            ),
            body,
          ),
        ),
      );
    }
    return body;
  };
  void (async () => {
    // Reconnect after a drop (server restart, proxy timeout), waiting longer each time up to RETRY_MAX_MS.
    let waitMs = RETRY_FIRST_MS;
    while (!signal.aborted) {
      // this connection ends when the view is left, or when the stream has been silent too long
      const connection = new AbortController();
      const leave = () => connection.abort();
      signal.addEventListener('abort', leave, { once: true });
      let silent = false;
      let silence: ReturnType<typeof setTimeout> | undefined;
      const heard = () => {
        clearTimeout(silence);
        silence = setTimeout(() => {
          silent = true;
          connection.abort();
        }, SILENCE_LIMIT_MS);
      };
      try {
        heard();
        const res = await fetch(url, {
          headers: authHeaders(),
          signal: connection.signal,
          cache: 'no-store',
        });
        if (res.status === 401 || res.status === 403) {
          // trying again cannot help: say so once rather than reconnect for ever
          state.textContent = `stopped: the cloud refuses this key the live view (HTTP ${res.status}); sign in again with a key that may read it`;
          state.className = 'bad';
          say(state.textContent);
          return;
        }
        if (!res.ok || !res.body) throw new Error(`live stream: HTTP ${res.status}`);
        state.textContent = 'connected: new verdicts appear as edges ship them';
        waitMs = RETRY_FIRST_MS;
        await readEvents(
          res.body,
          (_type, data) => {
            const event = JSON.parse(data) as LiveEvent;
            const body = tableOf(event.robotId);
            body.prepend(row(event));
            while (body.rows.length > MAX_ROWS_PER_ROBOT) body.deleteRow(-1);
          },
          heard,
        );
        state.textContent = `the stream ended; reconnecting in ${waitMs / 1000} s`;
      } catch (err) {
        if (signal.aborted) return;
        const why = silent
          ? `nothing heard for ${SILENCE_LIMIT_MS / 1000} s, not even a keepalive: the connection is taken for lost`
          : (err as Error).message;
        state.textContent = visible(`disconnected (${why}); reconnecting in ${waitMs / 1000} s`);
        say(state.textContent);
      } finally {
        clearTimeout(silence);
        signal.removeEventListener('abort', leave);
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      waitMs = Math.min(waitMs * 2, RETRY_MAX_MS);
    }
  })();
}
