import { createHmac, randomBytes } from 'node:crypto';
import {
  canonicalize,
  isTelemetryFrame,
  type ProximityFrame,
  type TelemetryFrame,
} from '@pentagate/protocol';
import t from 'tap';
import {
  COMMAND_MAC_CONTEXT,
  computeFrameMac,
  hmacKeyId,
  SENSOR_MAC_CONTEXT,
  signTelemetryFrame,
  verifyFrameMac,
} from '../src/index.js';

const frame: TelemetryFrame = {
  v: 1,
  robotId: 'ur5e-01',
  source: 'proximity-front',
  seq: 41,
  stampMs: 1_790_000_000_000,
  kind: 'proximity',
  nearestHumanM: 0.5,
};

t.test('the frame MAC is HMAC-SHA256 over the sensor context and the JCS of the frame', async (t) => {
  const key = new Uint8Array(randomBytes(32));
  // Independent computation with OpenSSL's HMAC, so the noble path is checked against another implementation.
  const expected = createHmac('sha256', key)
    .update(SENSOR_MAC_CONTEXT + canonicalize(frame))
    .digest('base64url');
  t.same(computeFrameMac(key, frame), { keyId: hmacKeyId(key), hmacSha256: expected });
  const signed = signTelemetryFrame(key, frame);
  t.ok(isTelemetryFrame(signed), 'a signed frame is still a valid frame');
  t.ok(verifyFrameMac(key, signed));
  t.same(computeFrameMac(key, signed), signed.mac, 'the mac member itself is not covered');
  t.not(SENSOR_MAC_CONTEXT, COMMAND_MAC_CONTEXT);
  const asCommand = createHmac('sha256', key)
    .update(COMMAND_MAC_CONTEXT + canonicalize(frame))
    .digest('base64url');
  t.not(asCommand, expected, 'a command MAC over the same bytes is another tag (domain separation)');
});

t.test('verifyFrameMac refuses other keys, changed values, missing and malformed tags', async (t) => {
  const key = new Uint8Array(randomBytes(32));
  const signed = signTelemetryFrame(key, frame) as ProximityFrame & {
    mac: { keyId: string; hmacSha256: string };
  };
  t.notOk(verifyFrameMac(new Uint8Array(randomBytes(32)), signed), 'other key');
  t.notOk(verifyFrameMac(key, { ...signed, nearestHumanM: null }), 'changed reading');
  t.notOk(verifyFrameMac(key, { ...signed, seq: 42 }), 'changed seq');
  t.notOk(verifyFrameMac(key, frame), 'no mac');
  const tag = signed.mac.hmacSha256;
  for (const bad of [tag.slice(0, 42), `${tag}A`, `${tag.slice(0, 42)}+`, '']) {
    t.notOk(verifyFrameMac(key, { ...signed, mac: { ...signed.mac, hmacSha256: bad } }), `tag ${bad}`);
  }
});
