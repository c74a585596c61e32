// One tenant holding calls in flight ("one tenant holds every place", ARCHITECTURE.md D26), run in a process of its own so
// that its sockets and event loop are not the server's: `node tenant-flood.mjs <port> <count> <path>` keeps
// `count` requests for `path` in flight on `count` keep-alive connections, with the session headers given as
// JSON in the environment variable TENANT_SESSION, and sends each again as soon as it is answered (whatever the
// answer). Once the first `count` have been sent it prints `ready`.
import { Agent, request } from 'node:http';

const [port, count] = process.argv.slice(2, 4).map(Number);
const path = process.argv[4];
const headers = JSON.parse(process.env.TENANT_SESSION ?? '{}');
const agent = new Agent({ keepAlive: true, maxSockets: count });
let sent = 0;

function send() {
  const req = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
    res.resume();
    res.on('end', send);
    res.on('error', () => setTimeout(send, 50));
  });
  req.on('error', () => setTimeout(send, 50));
  req.on('finish', () => {
    sent += 1;
    if (sent === count) process.stdout.write('ready\n');
  });
  req.end();
}

for (let i = 0; i < count; i++) send();
