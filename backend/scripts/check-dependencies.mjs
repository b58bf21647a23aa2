#!/usr/bin/env node
/**
 * `npm run lint:deps`: the backend's dependency rules.
 * - the file-level rules in .dependency-cruiser.cjs (common/ never imports a module, no module
 *   imports app.setup.ts, no import chain leaves a module and comes back to it);
 * - no cycle between modules, a module being a folder under src/modules/ (bots -> uploads ->
 *   bots fails even when the files involved do not form a loop).
 * `--graph` prints the module graph (module -> modules it imports).
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const backend = join(dirname(fileURLToPath(import.meta.url)), '..');
const { stdout } = await promisify(execFile)(
  join(backend, 'node_modules/.bin/depcruise'),
  ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
  { cwd: backend, maxBuffer: 64 * 1024 * 1024 },
).catch((error) => error); // depcruise exits non-zero on violations; the JSON still tells all
const result = JSON.parse(stdout);

const problems = result.summary.violations.map(
  (v) =>
    `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name ?? c).join(' -> ')})` : ''}`,
);

const moduleOf = (file) => /^src\/modules\/([^/]+)\//.exec(file)?.[1];
/** @type {Map<string, Map<string, string>>} module -> imported module -> one file-level example */
const graph = new Map();
for (const { source, dependencies } of result.modules) {
  const from = moduleOf(source);
  if (!from) continue;
  if (!graph.has(from)) graph.set(from, new Map());
  for (const dependency of dependencies) {
    const to = moduleOf(dependency.resolved);
    if (to && to !== from && !graph.get(from).has(to)) graph.get(from).set(to, `${source} -> ${dependency.resolved}`);
  }
}

// Every edge that lies on a cycle: from -> to where `to` reaches `from` back.
const reaches = (start, goal) => {
  const seen = new Set();
  const stack = [start];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === goal) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(graph.get(next)?.keys() ?? []));
  }
  return false;
};
for (const [from, targets] of graph) {
  for (const [to, example] of targets) {
    const arrow = `${from} -> ${to}`;
    if (reaches(to, from)) problems.push(`module-cycle: ${arrow} and back (${example})`);
  }
}

if (process.argv.includes('--graph')) {
  for (const name of [...graph.keys()].sort())
    console.log(`${name} -> ${[...graph.get(name).keys()].sort().join(', ') || '(none)'}`);
}
if (problems.length > 0) {
  console.error(`Dependency rules broken (${problems.length}):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `Dependency rules kept: ${result.summary.totalCruised} files, ${graph.size} modules, ` + 'no cycle between modules.',
);
