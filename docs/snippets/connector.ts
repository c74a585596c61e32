// The connector the binding, logging and deploying snippets serve: the scaffolded project's `src/connector.ts`
// (the minimal template), under the name that file exports, so each snippet pastes into such a project as it is.
export { notesConnector } from '../../examples/minimal/src/connector.js';
