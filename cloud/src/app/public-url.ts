/**
 * The address agents reach this server at (`cloud serve --public-url`), for the addresses it hands out:
 * registration's `propose_endpoint` (specification §2.2: "the address for later proposals"). Behind a proxy
 * that serves the API under a path prefix (`https://gw.example/pentagate/`) the server cannot see the prefix
 * itself, so it is configured. Without one, the address is made from the request the agent sent: the scheme
 * of its connection and its `Host` (RFC 9110 §7.2), which is where that agent reached this server; an agent
 * written to the specification passes `propose_endpoint` to its HTTP client as it is, and a bare path is not
 * an address a client such as `fetch` accepts.
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

/** A `Host` header as an address may hold it: a DNS name, IPv4 or bracketed IPv6, and an optional port. */
const HOST_HEADER =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/**
 * `path` as handed out to the agent that sent this request: under the public URL when there is one, else
 * under the scheme and `Host` it used. A `Host` that is not a plain host name and port (RFC 9110 §7.2 allows
 * only those; anything else is no address to give back) leaves the bare path.
 */
export function addressFor(
  path: string,
  publicUrl: URL | undefined,
  request: { protocol: string; host: string | undefined },
): string {
  if (publicUrl !== undefined) return addressOf(path, publicUrl);
  const host = request.host;
  if (host === undefined || !HOST_HEADER.test(host)) return path;
  const scheme = request.protocol === 'https' ? 'https' : 'http';
  return new URL(path, `${scheme}://${host}/`).href;
}
