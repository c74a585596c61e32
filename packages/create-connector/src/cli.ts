#!/usr/bin/env node
import { runCli } from './run-cli.js';

const write = (stream: NodeJS.WriteStream) => (line: string) => {
  stream.write(`${line}\n`);
};
process.exitCode = runCli(process.argv.slice(2), {
  out: write(process.stdout),
  err: write(process.stderr),
});
