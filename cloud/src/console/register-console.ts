/**
 * `GET /console` and its two bundled files, under a strict Content Security Policy (CSP Level 3): scripts and
 * styles only from this origin, no inline code, no eval, requests only to this origin (the API), no framing.
 * The pages hold an API key in sessionStorage, so the policy is what keeps an injected script or a hostile
 * frame away from it; nothing is fetched from a CDN. The routes need no API key (the page asks for one).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONSOLE_DIST_DIR, type ConsoleAsset, loadConsoleAssets } from './console-assets.js';

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function send(reply: FastifyReply, asset: ConsoleAsset): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache')
    .type(asset.contentType)
    .send(asset.body);
}

/**
 * The page's icon (a pentagon), named by index.html: a page that names none makes the browser ask for
 * /favicon.ico, which the cloud refuses — and records, as it records every refusal — on every visit.
 */
const ICON: ConsoleAsset = {
  contentType: 'image/svg+xml',
  body: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M16 2 30 12 25 29H7L2 12Z" fill="#1d3557"/></svg>',
  ),
};

/** `dir`: where the built console is (tests point it elsewhere). */
export function registerConsole(app: FastifyInstance, dir = CONSOLE_DIST_DIR): void {
  const assets = loadConsoleAssets(dir);
  const page = (file: string) => async (_request: unknown, reply: FastifyReply) => {
    const asset = assets?.get(file);
    if (!asset) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          'the console is not built: run `npm run build` (it bundles cloud/console into cloud/console-dist)\n',
        );
    }
    return send(reply, asset);
  };
  const hide = { schema: { hide: true } };
  app.get('/console', hide, page('index.html'));
  app.get('/console/', hide, page('index.html'));
  app.get('/console/console.js', hide, page('console.js'));
  app.get('/console/console.css', hide, page('console.css'));
  app.get('/console/icon.svg', hide, async (_request, reply) => send(reply, ICON));
}
