import 'reflect-metadata';
import { MIGRATIONS } from './migrations/index.js';
import { defaultTemplateRoot, ensureTemplate } from './pgdata-template.js';

/**
 * `npm run build` ends here: makes the migrated template that new embedded data folders are
 * copied from, so the first start after a build is already fast. Never fails the build: without a
 * template the app initialises a new folder itself (docs/decisions/0015-a-migrated-template-for-new-data-folders.md).
 */
const started = performance.now();
const root = defaultTemplateRoot();
const template = await ensureTemplate({ root, migrations: MIGRATIONS });
process.stdout.write(
  template
    ? `Embedded database template ready in ${Math.round(performance.now() - started)} ms: ${template}\n`
    : `No embedded database template could be made in ${root}; new data folders are initialised at their first start.\n`,
);
