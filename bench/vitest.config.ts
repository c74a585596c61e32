import { workspaceProject } from '../vitest.shared.js';

// The bench's own logic (how a budget is judged), tested as code; its figures are never tested.
export default workspaceProject('bench');
