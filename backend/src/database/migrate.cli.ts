import dataSource from './data-source.cli.js';

/** Runs pending migrations against DATABASE_URL (the app also does this at every start). */
await dataSource.initialize();
const applied = await dataSource.runMigrations({ transaction: 'each' });
process.stdout.write(
  `Applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ') || 'none pending'}\n`,
);
await dataSource.destroy();
