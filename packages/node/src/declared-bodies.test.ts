// On serve(): a declared Content-Length must not hold the body budget before its bytes come (the suite, shared
// with the fetch binding, says how it is checked).
import { describeDeclaredBodies } from '../test/declared-bodies.js';
import { serve } from './index.js';

describeDeclaredBodies(
  'declared request bodies and the body budget',
  async (connector, options) => {
    const running = await serve(connector, { ...options, port: 0 });
    return {
      server: running.server,
      port: running.port,
      base: `${running.url}/sdk/api/1.0`,
      close: () => running.close(),
    };
  },
);
