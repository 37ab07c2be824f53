/**
 * The forms under which one string argument can name a file, for the protected-resource rule: a tool
 * that opens a path may trim it, read `\` as `/`, resolve `.` and `..`, ignore a trailing `/`, or
 * accept a `file:` URL, so a pattern is tested against each of these forms and a call is refused when
 * any one matches (fail closed).
 */
import { posix } from 'node:path';

/**
 * RFC 8089 §2: a file URL names a local path, percent-encoded, when it has no host or the host `localhost`
 * (`file:///etc/passwd`, `file://localhost/etc/passwd`), or no authority at all (`file:/etc/passwd`, the
 * `local-path` form, which Node's fileURLToPath, Python's urllib and curl all open).
 */
const FILE_URL = /^file:(?:\/\/(?:localhost)?(\/.*)|(\/(?!\/).*))$/i;

function decodedPercent(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // not valid percent-encoding: the tool cannot decode it either
  }
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** `.` and `..` resolved, and a relative path that climbs out of its start (`x/../../etc`, `~/../../etc`)
 * also rooted: the start directory is unknown, so the climb may reach `/`. */
function normalForms(path: string): string[] {
  const normal = withoutTrailingSlash(posix.normalize(path));
  if (!normal.startsWith('../') && normal !== '..') return [normal];
  return [normal, `/${normal.replace(/^(?:\.\.(?:\/|$))+/, '')}`];
}

export function resourcePathForms(value: string): string[] {
  const forms = new Set([value]);
  const trimmed = value.trim();
  forms.add(trimmed);
  const slashed = trimmed.replace(/\\/g, '/');
  if (slashed.includes('/')) {
    for (const f of normalForms(slashed)) forms.add(f);
    const url = FILE_URL.exec(slashed);
    const urlPath = url?.[1] ?? url?.[2];
    if (urlPath) for (const f of normalForms(decodedPercent(urlPath))) forms.add(f);
  }
  return [...forms];
}
