/**
 * The operator console's entry: sign in with an API key (kept in sessionStorage only), then three views —
 * approvals, live verdicts, audit — chosen with the nav buttons or the URL fragment (which never holds the key).
 */
import { ApiCallError, api, session } from './api.js';
import { renderApprovals } from './approvals-view.js';
import { renderAudit } from './audit-view.js';
import { startCountdowns } from './countdown.js';
import { h, say } from './dom.js';
import { renderLive } from './live-view.js';

const VIEWS = { approvals: 'Approvals', live: 'Live', audit: 'Audit' } as const;
type View = keyof typeof VIEWS;

const main = document.getElementById('main') as HTMLElement;
const nav = document.getElementById('nav') as HTMLElement;
const signOut = document.getElementById('sign-out') as HTMLButtonElement;
let leaving = new AbortController();
/** The live view's robot filter (undefined: every robot). */
let liveRobot: string | undefined;

function signInForm(message = ''): void {
  nav.hidden = true;
  signOut.hidden = true;
  const input = h('input', {
    type: 'password',
    id: 'api-key',
    name: 'api-key',
    autocomplete: 'off',
    required: true,
    spellcheck: 'false',
  });
  const form = h(
    'form',
    { class: 'sign-in', 'aria-labelledby': 'sign-in-title' },
    h('h2', { id: 'sign-in-title' }, 'Sign in'),
    h('label', { for: 'api-key' }, 'Operator or auditor API key'),
    input,
    h('p', {}, 'The key stays in this tab (sessionStorage) and is sent only in the Authorization header.'),
    h('button', { type: 'submit', id: 'sign-in' }, 'Sign in'),
    message ? h('p', { class: 'bad', role: 'alert' }, message) : null,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    session.signIn(input.value.trim());
    input.value = '';
    void start();
  });
  main.replaceChildren(form);
  input.focus();
}

async function show(view: View): Promise<void> {
  leaving.abort();
  leaving = new AbortController();
  for (const button of nav.querySelectorAll('button')) {
    if (button.dataset.view === view) button.setAttribute('aria-current', 'page');
    else button.removeAttribute('aria-current');
  }
  history.replaceState(null, '', `#${view}`);
  // the status line speaks of the view it was said in
  say('');
  try {
    if (view === 'approvals') await renderApprovals(main);
    else if (view === 'live') {
      renderLive(main, leaving.signal, liveRobot, (robotId) => {
        liveRobot = robotId;
        void show('live').then(() => document.getElementById('live-robot')?.focus());
      });
    } else await renderAudit(main);
  } catch (err) {
    if (err instanceof ApiCallError && err.status === 401) return expired();
    const forbidden = err instanceof ApiCallError && err.status === 403;
    main.replaceChildren(
      h('h2', {}, VIEWS[view]),
      h(
        'p',
        { class: 'bad', role: 'alert' },
        forbidden ? `This key may not open this view: ${err.message}` : (err as Error).message,
      ),
    );
  }
}

/** The key stopped being accepted (revoked or expired) while in use: back to the sign-in form, saying why. */
function expired(): void {
  leaving.abort();
  session.signOut();
  signInForm('The cloud no longer accepts this key (revoked or expired): sign in again with a valid key.');
}

/**
 * The route the sign-in tries: the fleet registry, which operator and auditor keys read (ROUTE_SCOPES.fleet).
 * An agent or edge key is refused there (403) and so at sign-in, rather than signed in to views that each
 * answered 403.
 */
const SIGN_IN_PROBE = '/api/v1/fleet/robots';

async function start(): Promise<void> {
  if (!session.key()) return signInForm();
  try {
    await api('GET', SIGN_IN_PROBE);
  } catch (err) {
    session.signOut();
    const status = err instanceof ApiCallError ? err.status : undefined;
    return signInForm(
      status === 401
        ? 'That key is not accepted.'
        : status === 403
          ? 'That key is not an operator or auditor key: the console needs one of those.'
          : `Cannot sign in: ${(err as Error).message}.`,
    );
  }
  nav.replaceChildren(
    ...Object.entries(VIEWS).map(([view, label]) =>
      h('button', { type: 'button', 'data-view': view, onclick: () => void show(view as View) }, label),
    ),
  );
  nav.hidden = false;
  signOut.hidden = false;
  say('');
  const fromUrl = location.hash.slice(1);
  await show(fromUrl in VIEWS ? (fromUrl as View) : 'approvals');
}

signOut.addEventListener('click', () => {
  leaving.abort();
  session.signOut();
  signInForm();
});
startCountdowns();
void start();
