/**
 * A text's UTF-16 code units copied into a reused typed array by one native write, for the passes that
 * read every unit of a text and do little with each (the base64 run scan, the skeleton, the common-word
 * count): V8 checks what kind of string it reads at every `charCodeAt`, and a typed array is read in
 * about half the time, copy included.
 */

/** Whether a Uint16Array stores its low byte first here, as the 'utf16le' write lays units out. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export class CodeUnits {
  #bytes = Buffer.alloc(2048);
  #units = new Uint16Array(this.#bytes.buffer, this.#bytes.byteOffset, 1024);

  /**
   * `text`'s code units (lone surrogates too) at [0, text.length) of the array returned, then a 0 (so a
   * pass may read one unit past the end); past that, units of earlier texts. The array is reused by the
   * next call.
   */
  of(text: string): Uint16Array {
    const n = text.length;
    if (this.#units.length < n + 1) {
      this.#bytes = Buffer.alloc(2 * Math.max(n + 1, 2 * this.#units.length));
      this.#units = new Uint16Array(this.#bytes.buffer, this.#bytes.byteOffset, this.#bytes.length / 2);
    }
    if (LITTLE_ENDIAN) this.#bytes.write(text, 0, 'utf16le');
    else for (let i = 0; i < n; i++) this.#units[i] = text.charCodeAt(i);
    this.#units[n] = 0;
    return this.#units;
  }
}
