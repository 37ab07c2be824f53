/**
 * The size of a value as the JSON an answer carries it in, bytes: what the byte bounds of audit pages, the
 * approvals list and a robot's waiting consent requests count.
 */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}
