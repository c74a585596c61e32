// The scaffolded project's src/connector.ts, as the guides' blocks in project/test import it: the minimal
// example's connector, which is what `create-connector --template minimal` writes.
export { notesConnector } from '../../../../examples/minimal/src/connector.js';
