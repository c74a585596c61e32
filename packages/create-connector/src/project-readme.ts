/**
 * The README of a new project.
 *
 * @param name - the package name
 * @returns the README's Markdown
 * @internal
 */
export function projectReadme(name: string): string {
  return `# ${name}

A connector built with [Connector SDK](https://github.com/connector-sdk/connector-sdk), started from its
issue-tracker example: a sample end system (\`src/tracker/\`) and a complete connector for it.

\`\`\`sh
npm install
npm test           # the conformance kit and the lifecycle, against the sample end system
npm start          # the sample end system and the connector on 127.0.0.1 (PORT, default 3000)
npm run demo       # the whole lifecycle, driven as the platform does, secrets masked
npm run typecheck
\`\`\`

## Make it yours

1. \`src/connector.ts\`: the configuration fields, \`initialize\` (log in, answer the session), the operations
   and \`cleanup\`.
2. \`src/tracker-client.ts\`: how your end system's errors become the platform's (its error shape, a wrong login
   → 401, rate limits → 403 + wait).
3. \`src/tracker/\`: the sample end system. Keep it as a fake for tests, or use \`startFakeEndSystem\` from
   \`@connector-sdk/testing\`, and point the configuration at your real end system.

The tests use \`describeConformance\` from \`@connector-sdk/testing/vitest\`: keep them green as you go.
`;
}
