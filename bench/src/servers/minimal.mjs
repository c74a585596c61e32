// The minimal floor: the floor's raw node:http server, with the minimal connector's initialize and later call
// (entry shapes only, see minimal.mjs), the two scenarios the CPU budgets bound against it.
import * as handWritten from '../hand-written.mjs';
import { getIssue, initialize } from '../minimal.mjs';
import { start as startFloor } from './floor.mjs';

/** @param {{ port: number }} options */
export function start(options) {
  return startFloor(options, { ...handWritten, getIssue, initialize });
}
