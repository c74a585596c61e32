import { serve } from '@connector-sdk/node';
import { consoleLogger } from './console-logger.js';
import { notesConnector } from './connector.js';
import { NotesService } from './notes-service.js';

const running = await serve(notesConnector(new NotesService()), {
  port: Number(process.env.PORT ?? 3000),
  logger: consoleLogger(),
});
console.log(`notes-connector listening on ${running.url}/sdk/api/1.0`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void running.close().then(() => process.exit(0)));
}
