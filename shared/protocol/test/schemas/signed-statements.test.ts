import t from 'tap';
import {
  CalibrationCertificateSchema,
  ConsentStatementSchema,
  CustodyAttestationSchema,
  DsseEnvelopeSchema,
  FirmwareManifestSchema,
  PAYLOAD_TYPES,
  conforms,
} from '@pentagate/protocol';
import {
  SIG_B64,
  calibrationCertificate,
  consentStatement,
  custodyAttestation,
  dsseEnvelope,
  firmwareManifest,
} from './fixtures.js';
import { drop, refusesEach, set } from './refusal.js';

refusesEach(t, 'DSSE envelope', DsseEnvelopeSchema, dsseEnvelope, [
  ['missing payloadType', drop('/payloadType'), '/payloadType'],
  ['payloadType that is not a media type', set('/payloadType', 'in-toto'), '/payloadType'],
  ['payload in base64url', set('/payload', 'eyJh-_oxfQ=='), '/payload'],
  ['payload without padding', set('/payload', 'eyJhIjoxfQ'), '/payload'],
  ['non-canonical payload (unused bits set)', set('/payload', 'eyJhIjoxfR=='), '/payload'],
  ['payload as bytes', set('/payload', [1, 2, 3]), '/payload'],
  ['no signatures', set('/signatures', []), '/signatures'],
  ['signature without sig', drop('/signatures/0/sig'), '/signatures/0/sig'],
  ['sig that is not base64', set('/signatures/0/sig', 'not base64!'), '/signatures/0/sig'],
  ['keyid that is not a key id', set('/signatures/0/keyid', ''), '/signatures/0/keyid'],
  ['extra member in a signature', set('/signatures/0/cert', 'x'), '/signatures/0/cert'],
  ['extra member in the envelope', set('/payloadEncoding', 'hex'), '/payloadEncoding'],
  [
    'seventeen signatures',
    set('/signatures', Array(17).fill({ keyid: 'fedcba9876543210', sig: SIG_B64 })),
    '/signatures',
  ],
]);

t.test(
  'DSSE envelope: payload types are the contract media types and pass the envelope pattern',
  async (t) => {
    t.same(Object.values(PAYLOAD_TYPES).sort(), [
      'application/vnd.in-toto+json',
      'application/vnd.pentagate.calibration+json',
      'application/vnd.pentagate.consent+json',
      'application/vnd.pentagate.custody+json',
      'application/vnd.pentagate.firmware+json',
    ]);
    for (const payloadType of Object.values(PAYLOAD_TYPES)) {
      t.ok(conforms(DsseEnvelopeSchema, { ...dsseEnvelope(), payloadType }), payloadType);
    }
    t.ok(conforms(DsseEnvelopeSchema, { ...dsseEnvelope(), payload: '' }), 'an empty payload is well-formed');
  },
);

refusesEach(t, 'consent statement', ConsentStatementSchema, consentStatement, [
  ['missing intentDigest', drop('/intentDigest'), '/intentDigest'],
  ['unknown scope', set('/scope', 'everything'), '/scope'],
  ['nonce shorter than 16 chars', set('/nonce', 'short'), '/nonce'],
  ['nonce with spaces', set('/nonce', 'a nonce with spaces'), '/nonce'],
  ['expiresAt as ISO text', set('/expiresAt', '2025-06-01T00:00:00Z'), '/expiresAt'],
  ['notBefore fractional ms', set('/notBefore', 1.5), '/notBefore'],
  ['operatorId with a space', set('/operatorId', 'alice smith'), '/operatorId'],
  ['extra member', set('/torqueNm', 90), '/torqueNm'],
  ['version 0', set('/v', 0), '/v'],
]);

refusesEach(t, 'firmware manifest', FirmwareManifestSchema, firmwareManifest, [
  ['missing imageSha256', drop('/imageSha256'), '/imageSha256'],
  ['image digest in base64', set('/imageSha256', 'q'.repeat(43)), '/imageSha256'],
  ['vendor with a control character', set('/vendor', 'Acme\u0000'), '/vendor'],
  ['empty model', set('/model', ''), '/model'],
  ['version with a space', set('/firmwareVersion', '4.2 beta'), '/firmwareVersion'],
  ['empty robotIds', set('/robotIds', []), '/robotIds'],
  ['duplicate robotIds', set('/robotIds', ['arm-01', 'arm-01']), '/robotIds'],
  ['robot id that is a topic wildcard', set('/robotIds/1', '+'), '/robotIds/1'],
  ['extra member', set('/signedBy', 'acme'), '/signedBy'],
]);

refusesEach(t, 'calibration certificate', CalibrationCertificateSchema, calibrationCertificate, [
  ['missing expiresAt', drop('/expiresAt'), '/expiresAt'],
  ['missing sensorId', drop('/sensorId'), '/sensorId'],
  ['parameters as an array', set('/parameters', [1, 2]), '/parameters'],
  ['negative issuedAt', set('/issuedAt', -1), '/issuedAt'],
  ['extra member', set('/valid', true), '/valid'],
]);

refusesEach(t, 'custody attestation', CustodyAttestationSchema, custodyAttestation, [
  ['missing dataDigest', drop('/dataDigest'), '/dataDigest'],
  ['custodian as a number', set('/custodian', 7), '/custodian'],
  ['chain entry empty', set('/chain/0', ''), '/chain/0'],
  ['chain of 65 entries', set('/chain', Array(65).fill('x')), '/chain'],
  ['extra member', set('/trusted', true), '/trusted'],
]);
