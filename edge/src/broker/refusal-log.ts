/**
 * Logs the embedded broker's refusals without letting a flood flood the log: the first refusal of each
 * reason in a window is logged at once, the rest are counted and logged as one summary line when the
 * window ends (by reason, with the addresses refused most). A refusal carries a reason code, an address
 * and a fixed detail text, never a username or password.
 */
import type { Logger } from 'pino';
import type { BrokerRefusal } from './embedded-broker.js';

export const DEFAULT_REFUSAL_LOG_WINDOW_MS = 10_000;
/** Addresses named in a summary line; the others are only counted. */
const TOP_ADDRESSES = 5;
/** Distinct addresses counted per window (bounded memory under a flood from many addresses). */
const MAX_ADDRESSES = 1024;

export interface RefusalLog {
  onRefusal(event: BrokerRefusal): void;
  /** Logs what is still counted and stops the window timer. */
  flush(): void;
}

export function refusalLog(log: Logger, windowMs = DEFAULT_REFUSAL_LOG_WINDOW_MS): RefusalLog {
  const logged = new Set<BrokerRefusal['reason']>();
  const suppressed = new Map<BrokerRefusal['reason'], number>();
  const addresses = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    logged.clear();
    if (suppressed.size === 0) return;
    const top = [...addresses]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP_ADDRESSES)
      .map(([address, count]) => ({ address, count }));
    log.warn(
      {
        refused: Object.fromEntries(suppressed),
        addresses: top,
        distinctAddresses: addresses.size,
        windowMs,
      },
      'embedded broker: further connections refused',
    );
    suppressed.clear();
    addresses.clear();
  };

  return {
    onRefusal(event) {
      if (!timer) {
        timer = setTimeout(flush, windowMs);
        timer.unref();
      }
      if (!logged.has(event.reason)) {
        logged.add(event.reason);
        log.warn(
          { reason: event.reason, address: event.address, detail: event.detail },
          'embedded broker refused a connection',
        );
        return;
      }
      suppressed.set(event.reason, (suppressed.get(event.reason) ?? 0) + 1);
      const address = event.address ?? 'unknown';
      if (addresses.has(address) || addresses.size < MAX_ADDRESSES) {
        addresses.set(address, (addresses.get(address) ?? 0) + 1);
      }
    },
    flush,
  };
}
