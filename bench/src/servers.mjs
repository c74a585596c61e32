// The servers measured side by side, in table order. Each module in servers/ exports `start({ port })`.
import { redisMissing } from './redis-for-bench.mjs';

/**
 * Where the other frameworks are timed for comparison, alone in the first round: the SDK's three everyday
 * paths. On the other scenarios (the redaction's worst cases, the 401, the end-system call) they are checked
 * for the same answers and not timed: about two minutes of a full run that no budget judged.
 */
const COMPARED = ['initialize', 'later-call', 'catalog-call'];

/**
 * `only`: the scenarios a server serves at all (checked and timed); `compared`: those of them it is timed on
 * when no budget pair holds it there (throughput.mjs), every one it serves when left out.
 *
 * @type {readonly { name: string, title: string, module: string, only?: readonly string[], compared?: readonly string[], bodiesDiffer?: readonly string[] }[]}
 */
export const SERVERS = [
  {
    name: 'floor',
    title: 'raw node:http + zod (floor)',
    module: 'servers/floor.mjs',
  },
  {
    name: 'minimal',
    title: 'raw node:http + zod, entry shapes only (minimal)',
    module: 'servers/minimal.mjs',
    only: ['initialize', 'later-call'],
  },
  {
    name: 'naive',
    title: 'raw node:http + zod, no session seal, no redaction (naive)',
    module: 'servers/naive.mjs',
    // What the SDK's safety costs: its initialize and later call against this (report.mjs).
    only: ['initialize', 'later-call'],
    // Its initialize answers the session without ids or MAC: the status and error code are compared only.
    bodiesDiffer: ['initialize'],
  },
  {
    name: 'naive-sealed',
    title: 'raw node:http + zod, session seal only, no redaction (naive, sealed)',
    module: 'servers/naive-sealed.mjs',
    // The seal alone, made as the SDK makes it: the baseline of initialize's price of the rest of the safety.
    only: ['initialize'],
  },
  {
    name: 'floor-ky',
    title: 'raw node:http + zod, end system through ky made once (ky floor)',
    module: 'servers/floor-ky.mjs',
    only: ['end-system'],
  },
  {
    name: 'sdk-node',
    title: '@connector-sdk/node',
    module: 'servers/sdk-node.mjs',
  },
  {
    name: 'sdk-node-validated',
    title: '@connector-sdk/node, validateAnswers on',
    module: 'servers/sdk-node-validated.mjs',
    // What answer validation costs: measured on the platform operation only.
    only: ['catalog-call'],
  },
  {
    name: 'sdk-node-otel',
    title: '@connector-sdk/node, OpenTelemetry on (batch spans, metric reader)',
    module: 'servers/sdk-node-otel.mjs',
    only: ['later-call', 'end-system'],
  },
  {
    name: 'sdk-node-declared',
    title: '@connector-sdk/node, the entity read declared (@connector-sdk/core/rest)',
    module: 'servers/sdk-node-declared.mjs',
    only: ['declared-entity'],
  },
  { name: 'fastify', title: 'Fastify 5 + zod', module: 'servers/fastify.mjs', compared: COMPARED },
  {
    name: 'sdk-fetch',
    title: '@connector-sdk/fetch on @hono/node-server',
    module: 'servers/sdk-fetch.mjs',
    compared: COMPARED,
  },
  {
    name: 'sdk-express',
    title: '@connector-sdk/express (Express 5)',
    module: 'servers/sdk-express.mjs',
    compared: COMPARED,
  },
  {
    name: 'express-plain',
    title: 'Express 5 + express.json + zod',
    module: 'servers/express-plain.mjs',
    compared: COMPARED,
  },
  // The store's cost, a rate-limit count per call, against a Redis each server starts itself.
  ...(redisMissing === undefined
    ? [
        {
          name: 'sdk-node-redis',
          title: '@connector-sdk/node, Redis store (one node) + rate limit',
          module: 'servers/sdk-node-redis.mjs',
          only: ['initialize', 'later-call'],
        },
        {
          name: 'sdk-node-redis-cluster',
          title: '@connector-sdk/node, Redis Cluster store (3 primaries) + rate limit',
          module: 'servers/sdk-node-redis-cluster.mjs',
          only: ['initialize', 'later-call'],
        },
      ]
    : (process.stderr.write(`bench: Redis-backed servers left out: ${redisMissing}\n`), [])),
];

/**
 * Servers for `pnpm bench:pair` only (pair.mjs), never in the full run: each is the naive server with one piece
 * of the floor's work added, so that against the naive server it shows what that piece costs over HTTP.
 *
 * @type {readonly { name: string, title: string, module: string, only: readonly string[] }[]}
 */
export const PROBES = [
  {
    name: 'probe-naive-macs',
    title: "naive, making the floor's two MACs and throwing them away",
    module: 'servers/probe-naive-macs.mjs',
    only: ['initialize'],
  },
  {
    name: 'probe-naive-otel',
    title:
      'naive, recording by hand the span and histogram point the OpenTelemetry instrumentation records',
    module: 'servers/probe-naive-otel.mjs',
    only: ['later-call'],
  },
  {
    name: 'probe-naive-long',
    title: 'naive, answering as many bytes as the floor without making a MAC',
    module: 'servers/probe-naive-long.mjs',
    only: ['initialize'],
  },
];

/**
 * The budgets' pairs: on each scenario named, `server` is judged against `against` (report.mjs). The two are
 * measured side by side in alternating turns in every round, in fresh processes (throughput.mjs); every other
 * server is shown for comparison, measured alone in the first round.
 *
 * @type {readonly { server: string, against: string, scenarios: readonly string[] }[]}
 */
export const PAIRS = [
  // The node binding against the equal-work floor (CPU, req/s, p99), and within the budgets of redaction.
  {
    server: 'sdk-node',
    against: 'floor',
    scenarios: [
      'initialize',
      'initialize-secrets',
      'initialize-worst',
      'later-call',
      'catalog-call',
      'no-session',
    ],
  },
  // … against the floor that checks the entries' shape only, and the naive server, bare and sealed: the price of
  // the safety.
  { server: 'sdk-node', against: 'minimal', scenarios: ['initialize', 'later-call'] },
  { server: 'sdk-node', against: 'naive', scenarios: ['initialize', 'later-call'] },
  { server: 'sdk-node', against: 'naive-sealed', scenarios: ['initialize'] },
  // The end-system call against a careful user of ky.
  { server: 'sdk-node', against: 'floor-ky', scenarios: ['end-system'] },
  // Tracing and metrics on, against the same server without.
  { server: 'sdk-node-otel', against: 'sdk-node', scenarios: ['later-call', 'end-system'] },
  // A platform operation declared, against the same operation written by hand.
  { server: 'sdk-node-declared', against: 'sdk-node', scenarios: ['declared-entity'] },
  { server: 'sdk-express', against: 'express-plain', scenarios: ['initialize', 'later-call'] },
];
