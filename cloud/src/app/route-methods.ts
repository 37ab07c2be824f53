/**
 * Which methods each route path answers, so that a known path asked with another method gets 405 with an
 * `Allow` header (RFC 9110 §15.5.6) instead of a 404 that says the path does not exist.
 */
import type { FastifyInstance } from 'fastify';

interface RoutePattern {
  path: RegExp;
  methods: Set<string>;
}

/** `/api/v1/proofs/:decisionId` → /^\/api\/v1\/proofs\/[^/]+$/ ; `*` matches the rest. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':')
        ? '[^/]+'
        : segment === '*'
          ? '.*'
          : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

export class RouteMethods {
  readonly #routes = new Map<string, RoutePattern>();

  /** Collects every route registered after this call. */
  register(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      let entry = this.#routes.get(route.url);
      if (!entry) {
        entry = { path: patternOf(route.url), methods: new Set() };
        this.#routes.set(route.url, entry);
      }
      for (const method of [route.method].flat()) entry.methods.add(method);
    });
  }

  /** The methods that `path` answers to, sorted; empty when no route has that path. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const { path: pattern, methods: routeMethods } of this.#routes.values()) {
      if (pattern.test(path)) for (const m of routeMethods) methods.add(m);
    }
    return [...methods].sort();
  }
}
