// The naive server: the floor's raw node:http server with the naive connector's initialize and later call (no
// session seal, no redaction; see naive.mjs), the two scenarios whose price of safety the report states.
import * as handWritten from '../hand-written.mjs';
import { getIssue, initialize } from '../naive.mjs';
import { start as startFloor } from './floor.mjs';

/** @param {{ port: number }} options */
export function start(options) {
  return startFloor(options, { ...handWritten, getIssue, initialize });
}
