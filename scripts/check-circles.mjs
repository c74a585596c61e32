// Fails when any two source files of a package import each other, directly or through others (ARCHITECTURE.md, D25):
// layers import downward only (STYLE.md). dpdm reads every import, type-only ones included, from every
// source file of every package, not only from the entry points, so a file no entry reaches is judged too.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseCircular, parseDependencyTree } from 'dpdm';

const root = new URL('..', import.meta.url).pathname;

/** The source files of a package's `src`, tests left out. */
function sources(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .filter(
      (entry) => !/\.test(-d)?\.tsx?$/.test(entry.name) && !entry.parentPath.includes('fixtures'),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

const packages = readdirSync(join(root, 'packages'));
let found = 0;
for (const name of packages) {
  const entries = sources(join(root, 'packages', name, 'src'));
  const tree = await parseDependencyTree(entries, {
    cwd: root,
    context: root,
    transform: false,
    skipDynamicImports: false,
    exclude: /node_modules/,
  });
  for (const circle of parseCircular(tree)) {
    found++;
    console.error(`circle: ${circle.map((file) => relative(root, join(root, file))).join(' -> ')}`);
  }
}
if (found > 0) {
  console.error(
    `${found} import circle${found === 1 ? '' : 's'}: move what both sides need into a lower file`,
  );
  process.exit(1);
}
console.log(`import circles: none in ${packages.length} packages`);
