// A pipelining flood, run in a process of its own so that its sockets and its event loop are not the
// server's: `node pipeline-flood.mjs <port> <count> <requests>` opens `count` TCP connections to
// 127.0.0.1:<port>, then writes `requests` pipelined `GET /sdk/api/1.0/discover` on each in one go and reads
// nothing. Once every connection's requests are handed to the kernel it prints `ready`. Told `read` on its
// standard input, it reads every connection until the server closes it, then prints
// `{"connections":…,"mostAnswers":…,"answers":…}`: how many answers the connection that got the most got, and
// how many came in all. It exits after that, or after 120 s whatever happens.
import { connect } from 'node:net';

const [port, count, requests] = process.argv.slice(2, 5).map(Number);
const payload = Buffer.from(
  'GET /sdk/api/1.0/discover HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n'.repeat(requests),
);
const sockets = [];
let connected = 0;
let written = 0;
setTimeout(() => process.exit(2), 120_000).unref();

for (let i = 0; i < count; i++) {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  socket.on('error', () => undefined);
  socket.once('connect', () => {
    connected += 1;
    if (connected < count) return;
    // Every connection is open: the requests go out together, as one burst.
    for (const each of sockets)
      each.write(payload, () => {
        written += 1;
        if (written === count) process.stdout.write('ready\n');
      });
  });
  sockets.push(socket);
}

process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  if (!text.includes('read')) return;
  let open = sockets.length;
  let mostAnswers = 0;
  let answers = 0;
  for (const socket of sockets) {
    let seen = 0;
    let tail = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      // A status line may be split between two reads.
      const text = tail + chunk;
      seen += text.split('HTTP/1.1 ').length - 1;
      tail = text.slice(-8);
    });
    socket.once('close', () => {
      mostAnswers = Math.max(mostAnswers, seen);
      answers += seen;
      if (--open === 0) {
        process.stdout.write(
          `${JSON.stringify({ connections: sockets.length, mostAnswers, answers })}\n`,
        );
        process.exit(0);
      }
    });
    socket.resume();
  }
});
