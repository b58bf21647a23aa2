import { jest } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_BOT_ID } from '../../src/common/constants.js';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { SIGNUP_MESSAGE } from '../../src/modules/auth/auth.service.js';
import {
  ensureTemplate,
  restoreTemplate,
  templateKey,
  type TemplateSource,
} from '../../src/database/pgdata-template.js';
import { settle } from '../support/account-helpers.js';
import { TEST_PASSWORD, uniqueEmail } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A new embedded data folder starts as a copy of a migrated template (docs/decisions/0015-...):
 * always on the embedded PGlite, whatever TEST_DATABASE_URL says, since only it has data folders.
 */
const names = (migrations: Array<{ name: string }>) => migrations.map((m) => m.name);

async function appliedMigrations(t: TestApp): Promise<string[]> {
  const rows = await t.dataSource.query<{ name: string }[]>('SELECT name FROM migrations ORDER BY id');
  return rows.map((r) => r.name);
}

async function signupWorks(t: TestApp, email: string): Promise<void> {
  const response = await t
    .http()
    .post('/api/auth/signup')
    .set('Origin', t.origin)
    .send({ email, password: TEST_PASSWORD });
  await settle(t);
  expect(response.status).toBe(201);
  expect(response.body).toEqual({ message: SIGNUP_MESSAGE });
  const rows = await t.dataSource.query<{ email: string }[]>('SELECT email FROM users WHERE email = $1', [email]);
  expect(rows).toEqual([{ email }]);
}

async function demoBotKey(t: TestApp): Promise<string> {
  const [row] = await t.dataSource.query<{ api_key: string }[]>('SELECT api_key FROM bots WHERE id = $1', [
    DEMO_BOT_ID,
  ]);
  return row.api_key;
}

describe('a new embedded data folder from the migrated template', () => {
  const roots: string[] = [];
  const apps: TestApp[] = [];
  const tempRoot = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-templates-'));
    roots.push(root);
    return root;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
    for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  });

  it('has every migration applied, takes a signup, and gets its own demo bot key', async () => {
    const first = await startTestApp({}, { embedded: {} });
    apps.push(first);
    const second = await startTestApp({}, { embedded: {} });
    apps.push(second);

    for (const t of [first, second]) {
      expect(t.embedded?.origin).toBe('template');
      expect(await appliedMigrations(t)).toEqual(names(MIGRATIONS));
      expect(await t.dataSource.showMigrations()).toBe(false);
      expect(fs.readdirSync(t.dataDir).filter((entry) => entry.startsWith('pgdata.partial-'))).toEqual([]);
    }
    await signupWorks(first, 'template-first@example.com');
    await signupWorks(second, 'template-second@example.com');
    // The copies are two databases: the first one's account is not in the second.
    const leaked = await second.dataSource.query('SELECT 1 FROM users WHERE email = $1', [
      'template-first@example.com',
    ]);
    expect(leaked).toEqual([]);
    // The demo bot's key is made at random by a migration: no two folders share the template's.
    const keys = [await demoBotKey(first), await demoBotKey(second)];
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(keys[1]).toMatch(/^[0-9a-f]{64}$/);
    expect(keys[0]).not.toBe(keys[1]);
  }, 180_000);

  it('runs the migrations newer than an older template on the copy, and leaves the template as it was', async () => {
    const older: TemplateSource = { root: tempRoot(), migrations: MIGRATIONS.slice(0, 4) };
    const template = await ensureTemplate(older);
    expect(template).toBe(path.join(older.root, `pgdata-${templateKey(older.migrations)}`));
    const templateFiles = fs.readdirSync(template!).sort();

    const t = await startTestApp({}, { embedded: { template: older } });
    apps.push(t);
    expect(t.embedded?.origin).toBe('template');
    expect(await appliedMigrations(t)).toEqual(names(MIGRATIONS));
    await signupWorks(t, uniqueEmail('older-template'));
    // Not re-migrated in place: still only the template of those four migrations, unchanged.
    expect(fs.readdirSync(older.root)).toEqual([path.basename(template!)]);
    expect(fs.readdirSync(template!).sort()).toEqual(templateFiles);
  }, 180_000);

  it('leaves no folder behind when the copy fails midway, and the start falls back to initdb', async () => {
    const good: TemplateSource = { root: tempRoot(), migrations: MIGRATIONS.slice(0, 1) };
    const template = (await ensureTemplate(good))!;
    // The copy stops partway: half the template is written, then the disk "fills". (A file no
    // copy can take, such as a FIFO, is no use here: Node 20 refuses it but Node 24 skips it.)
    const realCopy = fs.cpSync.bind(fs);
    const copyFailsMidway = jest.spyOn(fs, 'cpSync').mockImplementation((_from, to) => {
      realCopy(path.join(template, 'PG_VERSION'), path.join(String(to), 'PG_VERSION'));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-copy-'));
    roots.push(dataDir);
    try {
      expect(await restoreTemplate(path.join(dataDir, 'pgdata'), good)).toBe(false);
      expect(copyFailsMidway).toHaveBeenCalledTimes(1);
      expect(fs.readdirSync(dataDir)).toEqual([]);

      const embedded = await EmbeddedPostgres.start(dataDir, { template: good });
      try {
        expect(embedded.origin).toBe('initdb');
        expect(copyFailsMidway).toHaveBeenCalledTimes(2);
        expect(fs.readdirSync(dataDir).sort()).toEqual(['botsmith.lock', 'pgdata']);
      } finally {
        await embedded.stop();
      }
    } finally {
      copyFailsMidway.mockRestore();
    }
  }, 180_000);

  let small: TemplateSource | undefined;
  const smallTemplate = () => (small ??= { root: tempRoot(), migrations: MIGRATIONS.slice(0, 1) });

  it('removes a copy left by a start that died, and starts from the template', async () => {
    const source = smallTemplate();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-copy-'));
    roots.push(dataDir);
    fs.mkdirSync(path.join(dataDir, 'pgdata.partial-99999', 'base'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'pgdata.partial-99999', 'PG_VERSION'), '18\n');

    const embedded = await EmbeddedPostgres.start(dataDir, { template: source });
    try {
      expect(embedded.origin).toBe('template');
      expect(fs.readdirSync(dataDir).sort()).toEqual(['botsmith.lock', 'pgdata']);
    } finally {
      await embedded.stop();
    }
  }, 180_000);

  it('opens an existing folder as it is, never over it from the template', async () => {
    const source = smallTemplate();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-copy-'));
    roots.push(dataDir);
    const first = await EmbeddedPostgres.start(dataDir, { template: source });
    await first.stop();
    const marker = path.join(dataDir, 'pgdata', 'base');
    const before = fs.readdirSync(marker).sort();

    const again = await EmbeddedPostgres.start(dataDir, { template: source });
    try {
      expect(again.origin).toBe('existing');
      expect(fs.readdirSync(marker).sort()).toEqual(before);
    } finally {
      await again.stop();
    }
  }, 120_000);
});
