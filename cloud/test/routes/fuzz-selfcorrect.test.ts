// 10,000 random requests to one route: never a 5xx; refusals write only their audit entry (helpers/fuzz-routes.ts).
import t from 'tap';
import { fuzzRoute } from '../helpers/fuzz-routes.js';

t.test('selfcorrect: never a 5xx, and refusals write only their own audit entry', (t) =>
  fuzzRoute(t, 'selfcorrect'),
);
