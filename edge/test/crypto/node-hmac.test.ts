/**
 * Differential test: the edge's node:crypto HMAC-SHA256 and the portable @noble/hashes one give the same
 * bytes for random keys and messages, and so the same command and frame MACs a controller or an auditor
 * computes with the portable code.
 */
import {
  nobleHmacSha256,
  sha256Hex,
  signMotorCommand,
  signTelemetryFrame,
  verifyCommandMac,
  verifyFrameMac,
} from '@pentagate/crypto';
import type { TelemetryFrame, UnsignedMotorCommand } from '@pentagate/protocol';
import fc from 'fast-check';
import t from 'tap';
import {
  edgeCommandMacs,
  edgeFrameMacs,
  nodeHmacSha256,
  nodeHmacSha256Text,
  nodeSha256Hex,
} from '../../src/crypto/node-hmac.js';

const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });

t.test('node:crypto and noble HMAC-SHA256 and SHA-256 agree', async (t) => {
  fc.assert(
    fc.property(bytes(1, 200), bytes(0, 4096), (key, message) => {
      const a = nodeHmacSha256(key, message);
      const b = nobleHmacSha256(key, message);
      return (
        a.length === 32 &&
        Buffer.from(a).equals(Buffer.from(b)) &&
        nodeSha256Hex(message) === sha256Hex(message)
      );
    }),
    { numRuns: 500 },
  );
  t.pass('500 random keys and messages, including keys longer than the 64-byte block');
});

t.test('the text HMAC hashes the same UTF-8 bytes as the byte HMAC', async (t) => {
  fc.assert(
    fc.property(
      bytes(1, 100),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 400 }),
      (key, prefix, body) => {
        const viaText = nodeHmacSha256Text(key, prefix, body);
        const viaBytes = nobleHmacSha256(key, new TextEncoder().encode(prefix + body));
        return Buffer.from(viaText).equals(Buffer.from(viaBytes));
      },
    ),
    { numRuns: 500 },
  );
  t.pass('500 random keys, prefixes and bodies in any script (emoji, combining marks, astral characters)');
});

t.test('edge-signed commands and frames verify with the portable code, and back', async (t) => {
  fc.assert(
    fc.property(
      bytes(32, 64),
      fc.integer({ min: 0, max: 2 ** 40 }),
      fc.double({ min: 0, max: 100, noNaN: true }),
      (key, seq, humanM) => {
        const unsigned: UnsignedMotorCommand = {
          v: 1,
          kid: '0123456789abcdef',
          robotId: 'r1',
          epoch: 3,
          seq,
          issuedAt: 1_790_000_000_000,
          validUntil: 1_790_000_000_500,
          intentId: 'i-1',
          setpoints: { kind: 'stop', reason: 'arrêt — 人が近い 🚧' },
          cfgDigest: 'a'.repeat(64),
          evidenceDigest: 'b'.repeat(64),
        };
        const fromEdge = edgeCommandMacs.sign(key, unsigned);
        const frame: TelemetryFrame = {
          v: 1,
          robotId: 'r1',
          source: 'p',
          seq,
          stampMs: 1_790_000_000_000,
          kind: 'proximity',
          nearestHumanM: humanM,
        };
        return (
          fromEdge.mac === signMotorCommand(key, unsigned).mac &&
          verifyCommandMac(key, fromEdge) &&
          verifyFrameMac(key, edgeFrameMacs.sign(key, frame)) &&
          edgeFrameMacs.verify(key, signTelemetryFrame(key, frame))
        );
      },
    ),
    { numRuns: 300 },
  );
  t.pass('300 random commands and frames');
});
