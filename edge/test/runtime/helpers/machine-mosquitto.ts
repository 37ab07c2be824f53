/**
 * The machine's Mosquitto at 127.0.0.1:1883, which tests of behaviour only an external broker shows (retained
 * messages, its own ACL) run against. Without it they skip with a clear message, except under CI=true, where its
 * absence is a failure (the suite must not pass by skipping them).
 */
import { connect } from 'node:net';

export const MOSQUITTO_URL = 'mqtt://127.0.0.1:1883';

function listening(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: 1883 });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const up = await listening();

/** tap's `skip` option for such a test: false (run it) when Mosquitto listens, or under CI=true. */
export const mosquittoSkip: string | false =
  up || process.env.CI === 'true'
    ? false
    : 'no Mosquitto on 127.0.0.1:1883; start it (with CI=true its absence is a failure)';

/** Fails `t` and answers false when the test runs (CI=true) without Mosquitto; true when it listens. */
export function mosquittoUp(t: { fail(message: string): void }): boolean {
  if (!up) t.fail('CI=true but no MQTT broker listens on 127.0.0.1:1883 (Mosquitto is required in CI)');
  return up;
}
