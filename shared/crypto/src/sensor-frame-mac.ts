/**
 * The sensor-frame MAC (ARCHITECTURE.md §4, "Authenticated sources"):
 *   mac = { keyId: hmacKeyId(key), hmacSha256: base64url(HMAC-SHA256(key, "pentagate-sensor-v1\n" || JCS(frame without mac))) }
 * A sensor node signs each frame with its own key; the edge refuses unsigned or wrongly signed frames of a
 * source the profile marks `authenticated`. Because the edge keeps each accepted frame's JCS bytes (mac
 * included) and a signed command's `evidenceDigest` is the SHA-256 of those frames, the command proves which
 * signed sensor readings it was decided on. The context differs from the motor command's, so one key can
 * never stand in for the other.
 */
import type { FrameMac, TelemetryFrame } from '@pentagate/protocol';
import { fromBase64Url, toBase64Url } from '@pentagate/protocol';
import { contextMac, HMAC_SHA256_BYTES, type HmacSha256 } from './context-mac.js';
import { hmacKeyId } from './key-id.js';
import { timingSafeEqual } from './timing-safe-equal.js';

export const SENSOR_MAC_CONTEXT = 'pentagate-sensor-v1\n';

/** The frame-MAC functions over one HMAC implementation (the edge passes node:crypto's). */
export function frameMacs(hmacSha256?: HmacSha256) {
  const macBytes = contextMac(SENSOR_MAC_CONTEXT, 'sensor MAC key', hmacSha256);
  /** The frame's MAC under `key` (any `mac` member of the input is ignored). */
  const compute = (key: Uint8Array, frame: TelemetryFrame): FrameMac => ({
    keyId: hmacKeyId(key),
    hmacSha256: toBase64Url(macBytes(key, frame)),
  });
  return {
    compute,
    /** The frame with its `mac` member set (replacing any previous one), as a sensor node publishes it. */
    sign: <F extends TelemetryFrame>(key: Uint8Array, frame: F): F => ({
      ...frame,
      mac: compute(key, frame),
    }),
    /**
     * True when `frame.mac.hmacSha256` is the MAC of every other member under `key`. Constant-time
     * comparison; a missing mac or a tag that is not canonical base64url of 32 bytes is simply not a match.
     * The caller picks `key` by `frame.mac.keyId` and decides whether that key may speak for the source.
     */
    verify: (key: Uint8Array, frame: TelemetryFrame): boolean => {
      if (frame.mac === undefined) return false;
      let claimed: Uint8Array;
      try {
        claimed = fromBase64Url(frame.mac.hmacSha256, 'frame.mac.hmacSha256', HMAC_SHA256_BYTES);
      } catch {
        return false;
      }
      return timingSafeEqual(macBytes(key, frame), claimed);
    },
  };
}

const portable = frameMacs();
export const computeFrameMac = portable.compute;
export const signTelemetryFrame = portable.sign;
export const verifyFrameMac = portable.verify;
