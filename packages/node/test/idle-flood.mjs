// A flood of idle connections (ARCHITECTURE.md, D26), run in a process of its own so that its sockets and its
// event loop are not the server's: `node idle-flood.mjs <port> <count>` opens `count` TCP connections to
// 127.0.0.1:<port> that send nothing, and reopens each as soon as it closes. Once every socket has connected it
// prints `ready`, then every 500 ms a line `{"open":…,"connects":…}` (sockets connected now, connections made
// so far). With a third argument `head`, each socket sends a complete initialize head whose body never comes
// instead of nothing: no credentials are needed for it. With `declared`, the head declares a body of 1 MiB and
// not a byte of it comes.
import { connect } from 'node:net';

const [port, count] = process.argv.slice(2, 4).map(Number);
const heads = {
  head: 'POST /sdk/api/1.0/initialize/s?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n[',
  declared:
    'POST /sdk/api/1.0/initialize/s?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\ncontent-length: 1048576\r\n\r\n',
};
const head = heads[process.argv[4]];
let open = 0;
let connects = 0;
let ready = false;

function dial() {
  const socket = connect(port, '127.0.0.1');
  let connected = false;
  socket.on('connect', () => {
    connected = true;
    if (head !== undefined) socket.write(head);
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
