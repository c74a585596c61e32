// A child process of the bench: starts one server (or the end system) and answers the parent's questions about
// its CPU time and memory. `process.cpuUsage()` counts every thread of the process (GC, libuv), user + system.
const module = process.argv[2];
const { start } = await import(new URL(module, import.meta.url).href);
const server = await start({ port: 0 });
process.send({ port: server.port });
process.on('message', async (message) => {
  if (message.type === 'stats') {
    // Between collections the process pauses 10 ms, so that FinalizationRegistry callbacks run (V8 posts them as
    // tasks; a setImmediate was not always enough): undici's fetch holds each request's parent signal and its
    // listener in one until the request is collected, and three collections in a row left thousands of those,
    // already garbage, counted as the server's (up to 10 MB in a heap snapshot after 50,000 mixed requests).
    if (message.gc)
      for (let i = 0; i < 3; i++) {
        globalThis.gc();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    const { user, system } = process.cpuUsage();
    const { rss, heapUsed } = process.memoryUsage();
    process.send({ cpuUs: user + system, userUs: user, rss, heapUsed });
  } else if (message.type === 'stop') {
    await Promise.race([server.close(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
