/**
 * JSON Pointer (RFC 6901) pieces the cloud writes in more than one place: the token of one object key,
 * and the dotted form an error message names a request member by (`/action/agent_id` → `action.agent_id`).
 */

/** A key as one reference token: `~` → `~0`, then `/` → `~1` (RFC 6901 §3; this order, §4). */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The member a pointer names, dotted, its tokens unescaped (`~1` → `/` first, then `~0` → `~`; §4). */
export function dottedPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}
