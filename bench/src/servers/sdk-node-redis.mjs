// @connector-sdk/node on a Redis store: every call, initialize included, counts against a shared
// rate limit (one script per call), on one Redis node that this server starts.
// The CPU measured is the connector process's; Redis runs beside it.
import { startRedisServer } from './sdk-node-redis-cluster.mjs';

/** @param {{ port: number }} options */
export const start = ({ port }) => startRedisServer({ port, cluster: false });
