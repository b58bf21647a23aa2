/**
 * The TypeORM DataSource the migration CLI uses, e.g.
 *   npx typeorm migration:generate -d backend/dist/database/data-source.cli.js backend/src/database/migrations/Name
 * It reads DATABASE_URL; the CLI needs a PostgreSQL server (the embedded database is owned
 * by the running app and refuses a second process).
 */
export { default } from './backend/src/database/data-source.cli.js';
