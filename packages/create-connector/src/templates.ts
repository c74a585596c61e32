import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A template a new project can start from, and what it holds. */
export interface Template {
  /** What the project is, in one line (shown by `create-connector --help`). */
  readonly summary: string;
  /** The repository example it is copied from (`examples/<example>`). */
  readonly example: string;
  /** Files and folders of the example a new project does without, relative to the example. */
  readonly leave: readonly string[];
}

/**
 * The templates, by the name `--template` takes. `minimal` is the default: a connector for an HTTP API with a
 * small fake of that API for its tests. `issue-tracker` is the full example: a sample end system with rate
 * limits and expiring tokens, four operations, lifecycle tests and a demo driven by the platform simulator.
 * `rest-api` is for a real end system from the start: a connector skeleton with token login and no fake, whose
 * test runs the conformance kit against the end system that `END_SYSTEM_URL`, `END_SYSTEM_USER` and
 * `END_SYSTEM_PASSWORD` name (and skips, saying so, without them), and whose dev server serves it for that end
 * system. `oauth2-api` is the same for an API behind OAuth2: the auth kit's login (password or client credentials
 * grant, refreshed and revoked), tested against the API and authorization server the environment names.
 */
export const TEMPLATES = {
  minimal: {
    summary:
      'a connector for an HTTP API (password login, bearer token, notes), a fake of that API for its tests',
    example: 'minimal',
    leave: [],
  },
  'issue-tracker': {
    summary:
      'the full example: a sample issue tracker (rate limits, expiring tokens), four operations, a demo',
    example: 'issue-tracker',
    // The example's Express mount shows the Express binding; a new connector is served by main.ts. The
    // Prometheus scrape test proves the example's telemetry against a Prometheus server, which a new project's
    // machines and CI need not have: its telemetry switch stays, tested where it is set up.
    // The hand-written connector and its comparison prove the declared one in this repository; a new project
    // starts from the declared one alone.
    leave: [
      'src/express-app.ts',
      'src/express-app.test.ts',
      'src/telemetry.prometheus.test.ts',
      'test/hand-written',
      'test/same-transcripts.test.ts',
    ],
  },
  'rest-api': {
    summary:
      'a connector skeleton for a real end system (token login), tested against it from END_SYSTEM_URL, no fake',
    example: 'rest-api',
    // The example proves its test against the kit's fake end system; a project tests against its own.
    leave: ['test/kit-fake-end-system.test.ts'],
  },
  'oauth2-api': {
    summary:
      'a connector skeleton for an API behind OAuth2 (the auth kit: refresh, revoke), tested against it, no fake',
    example: 'oauth2-api',
    // The example proves its test against the SDK's own test authorization server; a project uses its own.
    leave: ['test/kit-auth-server.test.ts'],
  },
  'rest-declarative': {
    summary:
      "a declarative connector: the end system's records described, the platform's operations made from them",
    example: 'rest-declarative',
    // As rest-api: the example proves its test against the kit's fake end system; a project tests its own.
    leave: ['test/kit-fake-end-system.test.ts'],
  },
} as const satisfies Record<string, Template>;

/** The name of a template: `minimal`, `issue-tracker`, `rest-api`, `oauth2-api` or `rest-declarative`. */
export type TemplateName = keyof typeof TEMPLATES;

/** Whether `name` names a template. */
export function isTemplateName(name: string): name is TemplateName {
  return Object.hasOwn(TEMPLATES, name);
}

/**
 * Where a template's example is: `template/<example>` beside `dist/` in the published package, or the example
 * itself when running from the repository's source (so tests never see a stale copy).
 *
 * @internal
 */
export function templateDirectory(name: TemplateName): string {
  const { example } = TEMPLATES[name];
  const published = fileURLToPath(new URL(`../template/${example}`, import.meta.url));
  if (existsSync(published)) return published;
  const repository = fileURLToPath(new URL(`../../../examples/${example}`, import.meta.url));
  if (existsSync(repository)) return repository;
  throw new Error(`The ${name} template is missing (looked in ${published})`);
}
