/**
 * `npm run bench -- edge` ("Speed"): (a) trapAndSign latency and throughput on one core beside a
 * bare HMAC-SHA256 over the same command bytes; (b) proximity telemetry → signed STOP end to end over the
 * embedded broker, beside a bare MQTT publish → receive through the same broker; (c) intent → verdict, quiet
 * and under a flood of wrong passwords; (d) proximity → signed STOP while a long motion runs and joint states
 * stream at 500 Hz-1 kHz.
 */
import { type BenchSuite, mergeSections } from '../harness/index.js';
import { benchAuthFlood } from './edge/auth-flood-bench.js';
import { benchEndToEndStop } from './edge/e2e-stop-bench.js';
import { benchStopUnderJointStream } from './edge/stop-under-joint-stream-bench.js';
import { benchTrapAndSign } from './edge/trap-and-sign-bench.js';

const suite: BenchSuite = {
  name: 'edge',
  description: '@pentagate/edge: trapAndSign vs bare HMAC (one core); proximity → signed STOP over MQTT',
  oneCore: true,
  async run(ctx) {
    ctx.log('trapAndSign…');
    const trap = benchTrapAndSign(ctx);
    ctx.log('end-to-end STOP over the embedded broker…');
    const e2e = await benchEndToEndStop(ctx);
    ctx.log('intent → verdict, quiet and under a wrong-password flood…');
    const flood = await benchAuthFlood(ctx);
    ctx.log('proximity → STOP under a 500 Hz-1 kHz joint-state stream…');
    const streamed = await benchStopUnderJointStream(ctx);
    return mergeSections('edge', [trap, e2e, flood, streamed]);
  },
};
export default suite;
