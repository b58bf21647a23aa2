#!/usr/bin/env node
/**
 * `npm test`: every check the project has, in one run, ending in a clear summary.
 * Runs every step even after a failure (so one run shows everything), exits 1 if any failed.
 *
 * Database: integration tests use TEST_DATABASE_URL (a PostgreSQL server; each test file gets
 * a fresh database) when it is set, else embedded PGlite. With a server, the database-facing
 * smoke specs also run once more on PGlite, so both engines are exercised in every CI run.
 *
 * `npm test -- --node-dependent` runs only the steps whose outcome can change with the Node.js
 * version running them: the backend's suites, the build and the browser tests (whose server runs
 * on that Node, on the embedded PGlite). CI's second pass on Node 24 uses it
 * (docs/decisions/0011-node-20-and-24.md): lint, format, types and the jsdom suites of browser
 * code read the same sources with the same tools and give the same answer on either Node.
 */
import { spawn } from 'node:child_process';

const onServer = Boolean(process.env.TEST_DATABASE_URL);
const jest = (config, extra = []) => [
  'npx',
  ['jest', '--config', config, '--runInBand', ...extra],
  { cwd: 'backend', env: { NODE_OPTIONS: '--experimental-vm-modules --no-warnings' } },
];

const nodeDependentOnly = process.argv.includes('--node-dependent');

const allSteps = [
  { name: 'lint (eslint)', cmd: ['npx', ['eslint', '.', '--max-warnings', '0']] },
  { name: 'dependencies (dependency-cruiser)', cmd: ['npm', ['run', 'lint:deps', '-w', 'backend']] },
  { name: 'docs links (every link into docs/ names a heading)', cmd: ['node', ['scripts/check-docs.mjs']] },
  { name: 'format (prettier)', cmd: ['npx', ['prettier', '--check', '.', '--log-level', 'warn']] },
  { name: 'typecheck', cmd: ['npm', ['run', 'typecheck', '--workspaces', '--if-present']] },
  { name: 'contract unit', cmd: ['npm', ['test', '-w', 'contract']], kind: 'vitest' },
  { name: 'backend unit', cmd: jest('jest.unit.config.js'), kind: 'jest', nodeDependent: true },
  {
    name: `backend integration (${onServer ? 'PostgreSQL server' : 'PGlite'})`,
    cmd: jest('jest.integration.config.js'),
    kind: 'jest',
    nodeDependent: true,
  },
  ...(onServer
    ? [
        {
          name: 'backend integration smoke (PGlite)',
          cmd: [
            'npx',
            [
              'jest',
              '--config',
              'jest.integration.config.js',
              '--runInBand',
              'health-errors-headers',
              'database',
              'knowledge-cited-answers',
              'test/integration/conversations.spec.ts',
              'test/integration/leads.spec.ts',
              'test/integration/handoff-limits.spec.ts',
              'test/integration/account-quotas.spec.ts',
              'test/integration/webhooks.spec.ts',
              'test/integration/webhooks-fairness.spec.ts',
              'owner-replies',
              'source-jobs-fairness',
              'test/integration/billing-overview.spec.ts',
              'test/integration/inbox-waiting.spec.ts',
              'test/integration/website-crawler-hostile.spec.ts',
              'test/integration/isolation-small.spec.ts',
              'test/integration/mail-consent.spec.ts',
              'test/integration/budget-rule.spec.ts',
              'test/integration/knowledge-tab.spec.ts',
              'test/integration/pgdata-template.spec.ts',
              'test/integration/retrieval-synonyms.spec.ts',
              'test/integration/model-label.spec.ts',
              'test/integration/onboarding.spec.ts',
              'test/integration/routes-attacker.spec.ts',
            ],
            { cwd: 'backend', env: { NODE_OPTIONS: '--experimental-vm-modules --no-warnings', TEST_DATABASE_URL: '' } },
          ],
          kind: 'jest',
          // Not repeated by --node-dependent: the browser tests run the built app on PGlite.
        },
      ]
    : []),
  { name: 'frontend components', cmd: ['npm', ['test', '-w', 'frontend']], kind: 'vitest' },
  { name: 'widget components', cmd: ['npm', ['test', '-w', 'widget']], kind: 'vitest' },
  { name: 'build', cmd: ['npm', ['run', 'build']], nodeDependent: true },
  {
    name: 'browser end-to-end (Chromium)',
    cmd: ['npm', ['test', '-w', 'e2e']],
    kind: 'vitest',
    needs: 'build',
    nodeDependent: true,
  },
];
const steps = nodeDependentOnly ? allSteps.filter((step) => step.nodeDependent) : allSteps;

function run([command, args, options = {}]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, FORCE_COLOR: '0', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const tee = (stream) => (chunk) => {
      output += chunk.toString();
      stream.write(chunk);
    };
    child.stdout.on('data', tee(process.stdout));
    child.stderr.on('data', tee(process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Reads the runner's own closing counts. */
function counts(kind, output) {
  // eslint-disable-next-line no-control-regex -- strips terminal colour codes
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  if (kind === 'jest') {
    const line = plain.match(/^Tests:\s+(.*)$/m)?.[1] ?? '';
    return {
      passed: Number(line.match(/(\d+) passed/)?.[1] ?? 0),
      failed: Number(line.match(/(\d+) failed/)?.[1] ?? 0),
      skipped: Number(line.match(/(\d+) skipped/)?.[1] ?? 0),
    };
  }
  if (kind === 'vitest') {
    const line = [...plain.matchAll(/^\s*Tests\s+(.*)$/gm)].pop()?.[1] ?? '';
    return {
      passed: Number(line.match(/(\d+) passed/)?.[1] ?? 0),
      failed: Number(line.match(/(\d+) failed/)?.[1] ?? 0),
      skipped: Number(line.match(/(\d+) skipped/)?.[1] ?? 0),
    };
  }
  return undefined;
}

/** The names of the failed tests, as the runner printed them (CI keeps only the log's tail). */
function failedTestNames(kind, output) {
  // eslint-disable-next-line no-control-regex -- strips terminal colour codes
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const pattern = kind === 'jest' ? /^\s*● (.+ › .+)$/gm : /^\s*FAIL\s+(\S+\.(?:ts|tsx) > .+)$/gm;
  return [...new Set([...plain.matchAll(pattern)].map((m) => m[1].trim()))].slice(0, 10);
}

const results = [];
for (const step of steps) {
  if (step.needs && results.find((r) => r.name === step.needs)?.ok === false) {
    results.push({ name: step.name, ok: false, note: `skipped: ${step.needs} failed`, seconds: 0 });
    continue;
  }
  process.stdout.write(`\n━━━ ${step.name} ━━━\n`);
  const started = Date.now();
  const { code, output } = await run(step.cmd);
  const c = step.kind ? counts(step.kind, output) : undefined;
  // A runner that exits 0 but ran nothing has not tested anything.
  const ranNothing = c && c.passed + c.failed === 0;
  results.push({
    name: step.name,
    ok: code === 0 && !ranNothing,
    counts: c,
    failures: step.kind && code !== 0 ? failedTestNames(step.kind, output) : [],
    note: ranNothing ? 'no tests ran' : '',
    seconds: Math.round((Date.now() - started) / 100) / 10,
  });
}

const tests = results.reduce(
  (sum, r) => ({
    passed: sum.passed + (r.counts?.passed ?? 0),
    failed: sum.failed + (r.counts?.failed ?? 0),
    skipped: sum.skipped + (r.counts?.skipped ?? 0),
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
const failedSteps = results.filter((r) => !r.ok);

process.stdout.write('\n━━━ Summary ━━━\n');
for (const r of results) {
  const figures = r.counts ? `${r.counts.passed} passed, ${r.counts.failed} failed` : '';
  process.stdout.write(
    `${r.ok ? 'PASS' : 'FAIL'}  ${r.name.padEnd(42)} ${figures.padEnd(24)} ${String(r.seconds).padStart(6)} s ${r.note ?? ''}\n`,
  );
  for (const name of r.failures ?? []) process.stdout.write(`        ✗ ${name}\n`);
}
process.stdout.write(`\nSteps: ${results.length - failedSteps.length} of ${results.length} passed\n`);
process.stdout.write(
  `tests: ${tests.passed} passed, ${tests.failed + failedSteps.filter((r) => !r.counts?.failed).length} failed${tests.skipped ? `, ${tests.skipped} skipped` : ''}\n`,
);
process.exit(failedSteps.length === 0 ? 0 : 1);
