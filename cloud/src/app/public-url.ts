/**
 * The address agents reach this server at (`cloud serve --public-url`), for the addresses it hands out:
 * registration's `propose_endpoint` (specification §2.2: "the address for later proposals"). Without one,
 * the server answers with its own paths, which a client resolves against the URL it called; behind a proxy
 * that serves the API under a path prefix (`https://gw.example/pentagate/`), that would drop the prefix, and
 * the server cannot see the prefix itself (nor trust a Host header a proxy rewrote), so it is configured.
 */

/** Room is left for the paths under it: registration's answer allows 2,048 characters for an address. */
const MAX_PUBLIC_URL_CHARS = 1024;

/** Parses `--public-url`: an http(s) URL with no credentials, query or fragment; a trailing `/` is optional. */
export function publicUrlOf(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RangeError(`public URL: expected an absolute http(s) URL, got ${JSON.stringify(text)}`);
  }
  const problem =
    url.protocol !== 'http:' && url.protocol !== 'https:'
      ? `the scheme must be http or https, not ${url.protocol.slice(0, -1)}`
      : url.username !== '' || url.password !== ''
        ? 'it must not carry credentials'
        : url.search !== '' || url.hash !== '' || text.includes('?') || text.includes('#')
          ? 'it must not have a query or fragment'
          : url.href.length > MAX_PUBLIC_URL_CHARS
            ? `it is longer than ${MAX_PUBLIC_URL_CHARS} characters`
            : undefined;
  if (problem) throw new RangeError(`public URL ${JSON.stringify(text)}: ${problem}`);
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url;
}

/** `path` (absolute, e.g. `/api/v1/agentgate/propose`) as handed out: under the public URL when there is one. */
export function addressOf(path: string, publicUrl: URL | undefined): string {
  return publicUrl === undefined ? path : new URL(path.replace(/^\/+/, ''), publicUrl).href;
}
