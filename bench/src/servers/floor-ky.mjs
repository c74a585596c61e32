// The ky floor: the floor's raw node:http server, whose end-system call is made with ky made once (see
// ky-floor.mjs). Measured on the end-system scenario only, where a budget bounds the SDK against it.
import * as handWritten from '../hand-written.mjs';
import { getRemote } from '../ky-floor.mjs';
import { start as startFloor } from './floor.mjs';

/** @param {{ port: number }} options */
export function start(options) {
  return startFloor(options, { ...handWritten, getRemote });
}
