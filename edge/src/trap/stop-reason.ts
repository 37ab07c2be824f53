/**
 * The reason a signed STOP carries (MotorCommand setpoints `{ kind: 'stop', reason }`): it is signed, logged
 * and shown to operators, so control characters other than tab and newline become spaces, an empty reason
 * says "protective stop", and it is cut to the 512 characters the schema allows.
 */
export function stopReason(reason: string): string {
  const clean =
    [...reason]
      .map((ch) => {
        const c = ch.charCodeAt(0);
        return (c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0x7f ? ' ' : ch;
      })
      .join('')
      .trim() || 'protective stop';
  return clean.length > 512 ? `${clean.slice(0, 511)}…` : clean;
}
