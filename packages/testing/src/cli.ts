#!/usr/bin/env node
import { runCli } from './cli/run-cli.js';

const write = (stream: NodeJS.WriteStream) => (line: string) => {
  stream.write(`${line}\n`);
};
void runCli(process.argv.slice(2), { out: write(process.stdout), err: write(process.stderr) }).then(
  (status) => {
    process.exitCode = status;
  },
);
