// The attack of issue 31 (High), run in a process of its own so that its sockets and its event loop are not the
// server's: `node idle-flood.mjs <port> <count>` opens `count` TCP connections to 127.0.0.1:<port> that send
// nothing, and reopens each as soon as it closes. Once every socket has connected it prints `ready`, then every
// 500 ms a line `{"open":…,"connects":…}` (sockets connected now, connections made so far).
import { connect } from 'node:net';

const [port, count] = process.argv.slice(2).map(Number);
let open = 0;
let connects = 0;
let ready = false;

function dial() {
  const socket = connect(port, '127.0.0.1');
  let connected = false;
  socket.on('connect', () => {
    connected = true;
    open += 1;
    connects += 1;
    if (!ready && connects >= count) {
      ready = true;
      process.stdout.write('ready\n');
    }
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    if (connected) open -= 1;
    // Refused (the server is gone or its backlog is full): wait a little rather than spin.
    if (connected) setImmediate(dial);
    else setTimeout(dial, 50);
  });
}

for (let i = 0; i < count; i++) dial();
setInterval(() => process.stdout.write(`${JSON.stringify({ open, connects })}\n`), 500);
