import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.js';

export default defineConfig({
  test: {
    projects,
    // A worker per core. Vitest's default leaves one core to itself (one worker on a two-core machine), and the
    // suite then took 267 s where two workers take 154 s: most of its time is waiting on real servers.
    maxWorkers: '100%',
  },
});
