/**
 * Parsing of command-line values shared by the edge commands: durations (`60s`), ISO times, SHA-256 hex,
 * the `--mqtt` target, and reading small input files. Every failure is a UsageError (exit 2) that names
 * the option and what came.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { readEd25519KeyFile, assertOwnerOnlyKeyFile } from '@pentagate/crypto';
import { cannotRead, type ParsedCommandLine, readJson, UsageError } from '@pentagate/protocol';

const DURATION = /^(\d{1,9})(ms|s|m|h)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `500ms`, `60s`, `5m`, `1h` → milliseconds. */
export function parseDurationMs(text: string, option: string): number {
  const m = DURATION.exec(text);
  if (!m)
    throw new UsageError(
      `--${option}: expected a duration such as 500ms, 60s, 5m or 1h, got ${JSON.stringify(text)}`,
    );
  return Number(m[1]) * (UNIT_MS[m[2] as string] as number);
}

export function parseSha256Hex(text: string, option: string): string {
  if (!/^[0-9a-f]{64}$/.test(text)) {
    throw new UsageError(
      `--${option}: expected 64 lower-case hex characters (SHA-256), got ${JSON.stringify(text.slice(0, 80))}`,
    );
  }
  return text;
}

export function parsePort(text: string, option: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65_535))
    throw new UsageError(`--${option}: expected a TCP port 0-65535, got ${JSON.stringify(text)}`);
  return port;
}

/**
 * `--cloud URL`: the cloud's http(s) address. Without a scheme (`127.0.0.1:8080`, the usual slip) fetch
 * cannot use it: refused here as bad usage, naming the fix, not later as an unreachable cloud.
 *
 * Plain http only to a loopback address, unless `--cloud-insecure-http` says otherwise: over the link come the
 * operator keys the edge trusts for consent and the consent tokens themselves, and the edge's own key goes the
 * other way, so anyone on the path could add his own operator key and sign a waiting move.
 */
export function parseCloudUrl(text: string, args: ParsedCommandLine): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    const host = /^([^/:]+):\d+(\/|$)/.exec(text)?.[1];
    const scheme = host !== undefined && isLoopback(host) ? 'http' : 'https';
    const hint = host !== undefined ? `; did you mean ${scheme}://${text}?` : '';
    throw new UsageError(
      `--cloud: expected the cloud's http:// or https:// URL, got ${JSON.stringify(text)}${hint}`,
    );
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && args.options['cloud-insecure-http'] !== true) {
    throw new UsageError(
      `--cloud: ${JSON.stringify(text)} is plain http to a host that is not loopback: operator keys, consent ` +
        'tokens and the edge key would cross the network unprotected. Use https://, or pass --cloud-insecure-http ' +
        'on a network you trust (a private container network)',
    );
  }
  return text;
}

/** localhost, 127.0.0.0/8 and ::1 (WHATWG URL hostnames: IPv6 in brackets). */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** The option that lets `--cloud` be plain http to another host (parseCloudUrl). */
export const CLOUD_INSECURE_HTTP_OPTION = {
  'cloud-insecure-http': {
    type: 'boolean',
    description:
      'Allow --cloud to be plain http:// to a host that is not loopback (a trusted private network only)',
  },
} as const;

export type MqttTarget = { kind: 'embedded'; port: number } | { kind: 'url'; url: string };

/** `embedded:PORT` or `mqtt://host:port` / `mqtts://host:port`. */
export function parseMqttTarget(text: string): MqttTarget {
  const embedded = /^embedded:(.*)$/.exec(text);
  if (embedded) return { kind: 'embedded', port: parsePort(embedded[1] as string, 'mqtt embedded:PORT') };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    url = new URL('invalid://');
  }
  if ((url.protocol !== 'mqtt:' && url.protocol !== 'mqtts:') || url.hostname === '') {
    throw new UsageError(
      `--mqtt: expected embedded:PORT, mqtt://host:port or mqtts://host:port, got ${JSON.stringify(text)}`,
    );
  }
  if (url.username || url.password) {
    throw new UsageError(
      '--mqtt: put credentials in --username and --password-file, not in the URL (it is logged)',
    );
  }
  return { kind: 'url', url: text };
}

/** Reads a whole input file; a missing or unreadable file is a UsageError naming the option. */
export async function readInputFile(path: string, option: string, maxBytes = 1024 * 1024): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new UsageError(`--${option}: ${cannotRead(path, err)}`);
  }
  if (bytes.length > maxBytes)
    throw new UsageError(`--${option}: ${path} is ${bytes.length} bytes; expected at most ${maxBytes}`);
  return bytes;
}

export async function readJsonFile(path: string, option: string): Promise<unknown> {
  return readJson(await readInputFile(path, option), { what: `--${option} ${path}` });
}

/**
 * A secret in a file (password, API key): one line, trailing newline dropped. Refused when group or others may
 * read the file, as the key files are: whoever reads it holds the broker account or the API key.
 */
export async function readSecretFile(path: string, option: string): Promise<string> {
  await assertOwnerOnlyKeyFile(path, `--${option} secret`);
  const text = (await readInputFile(path, option, 4096)).toString('utf8').replace(/\r?\n$/, '');
  if (text.length === 0 || text.includes('\n'))
    throw new UsageError(`--${option}: expected one non-empty line in ${path}`);
  return text;
}

/** Writes a new output file; never overwrites (a signed document is evidence). */
export async function writeNewFile(path: string, text: string, option = 'out'): Promise<void> {
  try {
    await writeFile(path, text, { flag: 'wx', mode: 0o644 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'EEXIST'
        ? `--${option}: ${path} exists; refusing to overwrite it`
        : `--${option}: cannot write ${path}: ${code ?? (err as Error).message}`,
    );
  }
}

export function optionalString(args: ParsedCommandLine, name: string): string | undefined {
  const v = args.options[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function stringList(args: ParsedCommandLine, name: string): string[] {
  const v = args.options[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

/**
 * An Ed25519 private key given with `--key` (an operator's consent key, a vendor's or a calibration lab's
 * signing key), refused when group or others may read it: whoever reads it signs consent, firmware or
 * calibration in its holder's name.
 */
export async function readSigningKeyFile(path: string, what: string): ReturnType<typeof readEd25519KeyFile> {
  await assertOwnerOnlyKeyFile(path, what);
  return readEd25519KeyFile(path);
}
