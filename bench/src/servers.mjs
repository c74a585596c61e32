// The servers measured side by side, in table order. Each module in servers/ exports `start({ port })`.
import { redisMissing } from './redis-for-bench.mjs';

// `judged`: the servers whose ratios decide the budgets (report.mjs), on every scenario they serve or on those
// named; they are measured together, in turns, in each round and in more rounds than the others (throughput.mjs,
// README).
/** @type {readonly { name: string, title: string, module: string, only?: readonly string[], judged?: boolean | readonly string[], bodiesDiffer?: readonly string[] }[]} */
export const SERVERS = [
  {
    name: 'floor',
    title: 'raw node:http + zod (floor)',
    module: 'servers/floor.mjs',
    // Its ratios on the end-system call and the declared entity are stated, not budgets: one round there.
    judged: [
      'initialize',
      'initialize-secrets',
      'initialize-worst',
      'later-call',
      'catalog-call',
      'no-session',
    ],
  },
  {
    name: 'minimal',
    title: 'raw node:http + zod, entry shapes only (minimal)',
    module: 'servers/minimal.mjs',
    // The CPU budgets bound initialize and the later call against it too.
    only: ['initialize', 'later-call'],
    judged: true,
  },
  {
    name: 'naive',
    title: 'raw node:http + zod, no session seal, no redaction (naive)',
    module: 'servers/naive.mjs',
    // What the SDK's safety costs: its initialize and later call against this (report.mjs).
    only: ['initialize', 'later-call'],
    judged: true,
    // Its initialize answers the session without ids or MAC: the status and error code are compared only.
    bodiesDiffer: ['initialize'],
  },
  {
    name: 'floor-ky',
    title: 'raw node:http + zod, end system through ky made once (ky floor)',
    module: 'servers/floor-ky.mjs',
    // A budget bounds the SDK's end-system call against it.
    only: ['end-system'],
    judged: true,
  },
  {
    name: 'sdk-node',
    title: '@connector-sdk/node',
    module: 'servers/sdk-node.mjs',
    judged: true,
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
    judged: true,
    // A budget bounds the later call and the end-system call with tracing and metrics on.
    only: ['later-call', 'end-system'],
  },
  {
    name: 'sdk-node-declared',
    title: '@connector-sdk/node, the entity read declared (@connector-sdk/core/rest)',
    module: 'servers/sdk-node-declared.mjs',
    judged: true,
    // A budget bounds the declared operation against the same operation written by hand.
    only: ['declared-entity'],
  },
  { name: 'fastify', title: 'Fastify 5 + zod', module: 'servers/fastify.mjs' },
  {
    name: 'sdk-fetch',
    title: '@connector-sdk/fetch on @hono/node-server',
    module: 'servers/sdk-fetch.mjs',
  },
  {
    name: 'sdk-express',
    title: '@connector-sdk/express (Express 5)',
    module: 'servers/sdk-express.mjs',
    judged: ['initialize', 'later-call'],
  },
  {
    name: 'express-plain',
    title: 'Express 5 + express.json + zod',
    module: 'servers/express-plain.mjs',
    judged: ['initialize', 'later-call'],
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
