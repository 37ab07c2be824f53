import t from 'tap';
import { dottedPath, pointerToken } from '../../src/json-pointer.js';

t.test('a key becomes one RFC 6901 reference token (~ first, then /)', async (t) => {
  t.equal(pointerToken('plain'), 'plain');
  t.equal(pointerToken('a/b'), 'a~1b');
  t.equal(pointerToken('m~n'), 'm~0n');
  // escaping / before ~ would turn "~1" into "~01" and then read back as "~1", not "/"
  t.equal(pointerToken('~1'), '~01');
  t.equal(pointerToken(''), '');
});

t.test('a pointer is named dotted, its tokens unescaped (RFC 6901 §4 order)', async (t) => {
  t.equal(dottedPath('/lobe_name'), 'lobe_name');
  t.equal(dottedPath('/action/agent_id'), 'action.agent_id');
  t.equal(
    dottedPath(`/tool_call/arguments/${pointerToken('a/b')}/${pointerToken('~1')}`),
    'tool_call.arguments.a/b.~1',
  );
  t.equal(dottedPath('/items/0'), 'items.0');
  t.equal(dottedPath(''), '');
});
