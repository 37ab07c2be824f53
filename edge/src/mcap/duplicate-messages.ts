/**
 * Exact duplicates in a recording: the same bytes on the same topic at the same log time. DDS delivers a sample
 * once per subscription, so a recorder never writes one; they come from bags merged from two recorders of the same
 * topic or from a writer that retried. Replayed twice, a duplicated trajectory would be two intents and two signed
 * commands for one request, so a copy is counted (`duplicate-message`) and not fed. Only the latest message of each
 * topic is kept for the comparison.
 */
export class DuplicateMessages {
  readonly #last = new Map<string, { logTimeNs: bigint; data: Uint8Array }>();

  /** Whether `data` repeats the previous message of `topic`, logged at the same time. */
  isCopy(topic: string, logTimeNs: bigint, data: Uint8Array): boolean {
    const last = this.#last.get(topic);
    const copy =
      last !== undefined &&
      last.logTimeNs === logTimeNs &&
      last.data.byteLength === data.byteLength &&
      Buffer.from(last.data.buffer, last.data.byteOffset, last.data.byteLength).equals(data);
    // The readers hand over data of their own (MCAP: a copy per record; SQLite: a Buffer per row): kept as is.
    if (!copy) this.#last.set(topic, { logTimeNs, data });
    return copy;
  }
}

export function duplicateDetail(topic: string, type: string, logTimeNs: bigint): string {
  return `${topic}: a second ${type} message with the same bytes at the same log time ${logTimeNs} ns (a merged or re-written bag): counted once`;
}
