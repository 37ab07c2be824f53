/**
 * How many fields of one header a request carried (`rawHeaders` as Node gives them: name, value, name, …).
 * Node folds repeated fields into one value, or keeps only the first for some names (Host, Authorization), so
 * a header that must come once (RFC 9110 §5.3) is counted here, before its value is read.
 */
export function headerFieldCount(rawHeaders: readonly string[], lowerCaseName: string): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === lowerCaseName) n++;
  return n;
}
