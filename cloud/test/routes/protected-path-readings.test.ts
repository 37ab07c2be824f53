/**
 * Protected paths named through a relative path or a Windows UNC admin share, proposed through the agent
 * route (outside attack review: `./etc/shadow`, `etc/passwd` and `\\localhost\C$\…` were approved). A
 * relative path is opened from the tool's working directory, `/` for a daemon; `\\host\C$\` is drive C.
 */
import t, { type Test } from 'tap';
import { EXAMPLE_POLICY, registerLobe, transferCall } from '../helpers/cloud-app.js';
import { kernelCloud, post } from '../kernel/kernel-helpers.js';

/** The example policy, plus the Windows registry hives (the SAM holds the local password hashes). */
const POLICY = EXAMPLE_POLICY.replace(
  '  protectedResources:\n',
  '  protectedResources:\n    - id: registry-hives\n      pattern: "/Windows/System32/config/**"\n      reason: The registry hives hold local credentials.\n',
);

/** Proposes `fs.read` of each path for one agent (denials of a tool soon also count as probing). */
async function fileReader(t: Test) {
  const cloud = await kernelCloud(t, { policyText: POLICY });
  const lobe = await registerLobe(cloud, cloud.a);
  return async (path: string) => {
    const call = transferCall(lobe, 0, {
      tool_name: 'fs.read',
      arguments: { path },
      trigger_prompt: 'Read the file.',
    });
    return (await post(cloud, cloud.a.keys.agent, '/api/v1/agentgate/propose', call)).json();
  };
}

t.test('a relative path or a UNC admin share naming a protected path is refused', async (t) => {
  const readFile = await fileReader(t);
  for (const path of [
    'etc/passwd',
    './etc/shadow',
    '../../etc/passwd',
    '\\\\localhost\\C$\\Windows\\System32\\config\\SAM',
    '\\\\127.0.0.1\\c$\\Windows\\System32\\config\\SAM',
    '\\\\?\\C:\\Windows\\System32\\config\\SAM',
    '\\\\?\\UNC\\localhost\\C$\\Windows\\System32\\config\\SAM',
    '//fileserver/c$/etc/passwd',
  ]) {
    const body = await readFile(path);
    t.equal(body.approved, false, path);
    t.match(body.violations.join('\n'), /INVARIANT\.PROTECTED_RESOURCE/, path);
  }
});

t.test('relative paths and shares outside the patterns still pass', async (t) => {
  const readFile = await fileReader(t);
  for (const path of [
    './build/report.txt',
    'src/etc/config.yaml',
    '\\\\localhost\\C$\\Users\\me\\notes.txt',
    '\\\\fileserver\\reports\\etc\\passwd', // an ordinary share, not a drive
  ]) {
    t.equal((await readFile(path)).approved, true, path);
  }
});
