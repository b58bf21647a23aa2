import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { nextPeriodStart } from '../../src/common/billing-period.js';
import { BILLING_CYCLE_LOCK_KEY } from '../../src/common/constants.js';
import { runBillingCycleCommand, UsageError } from '../../src/modules/billing/billing-cycle.command.js';
import { chargeMessage, completeSetup } from '../support/billing-helpers.js';
import { signedInAgent } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { describeOnServer } from '../support/test-database.js';

const nextCycle = () => `--at=${new Date(nextPeriodStart(new Date()).getTime() + 60_000).toISOString()}`;

function capture() {
  const lines = { out: '', err: '' };
  return { lines, io: { out: (t: string) => (lines.out += t), err: (t: string) => (lines.err += t) } };
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-cycle-cli-'));
}

/** The environment the command sees: nothing that would switch it onto an external service. */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'error' };
  for (const key of ['DATABASE_URL', 'STRIPE_SECRET_KEY', 'SMTP_URL', 'OPENAI_API_KEY', 'REDIS_URL', 'S3_BUCKET']) {
    delete base[key];
  }
  return { ...base, ...extra };
}

describe('npm run billing:cycle on the embedded database', () => {
  let holder: ChildProcess | undefined;
  afterAll(() => {
    if (holder?.pid && holder.exitCode === null) holder.kill('SIGKILL');
  });

  it('refuses with a clear message while the server holds the data folder, and touches nothing', async () => {
    const dataDir = tempDir();
    // A live process that holds the data-folder lock, as the running server does.
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    fs.writeFileSync(path.join(dataDir, 'botsmith.lock'), String(holder.pid));
    const { lines, io } = capture();
    const code = await runBillingCycleCommand([], env({ DATA_DIR: dataDir }), io);
    expect(code).toBe(2);
    expect(lines.err).toContain('The billing cycle was NOT run');
    expect(lines.err).toContain('in use by the running Botsmith server');
    expect(lines.err).toContain('stop the server first');
    expect(lines.out).toBe('');
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
    holder.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens the folder itself and runs the cycle when no server is running', async () => {
    const dataDir = tempDir();
    const { lines, io } = capture();
    const code = await runBillingCycleCommand([nextCycle()], env({ DATA_DIR: dataDir }), io);
    expect(code).toBe(0);
    expect(JSON.parse(lines.out)).toMatchObject({ ran: true, reportedEvents: 0 });
    expect(fs.existsSync(path.join(dataDir, 'botsmith.lock'))).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
    // Starting an embedded PGlite and running every migration took over 60 s on a loaded CI machine.
  }, 180_000);

  it('rejects a malformed --at', async () => {
    await expect(runBillingCycleCommand(['--at=someday'], env({ DATA_DIR: tempDir() }))).rejects.toBeInstanceOf(
      UsageError,
    );
  });
});

// Against a PostgreSQL server, next to a running app (PGlite serves one connection only).
describeOnServer('npm run billing:cycle with DATABASE_URL, next to a running server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('reports the period once, however many times it is run', async () => {
    const { agent, user } = await signedInAgent(t, { billing: 'none', creditsCents: 0 });
    await completeSetup(t, agent);
    await chargeMessage(t, user.id, 5);
    await chargeMessage(t, user.id, 3);

    const first = capture();
    expect(await runBillingCycleCommand([nextCycle()], env({ DATABASE_URL: t.database.url }), first.io)).toBe(0);
    expect(JSON.parse(first.lines.out)).toMatchObject({ ran: true, reportedEvents: 2, reportedCents: 8, invoices: 1 });
    const second = capture();
    expect(await runBillingCycleCommand([nextCycle()], env({ DATABASE_URL: t.database.url }), second.io)).toBe(0);
    expect(JSON.parse(second.lines.out)).toMatchObject({ ran: true, reportedEvents: 0, invoices: 0 });

    const [meter] = await t.dataSource.query(
      `SELECT count(*)::int AS n, sum(value)::int AS cents FROM test_payment_meter_events m
         JOIN users u ON u.stripe_customer_id = m.customer_id WHERE u.id = $1`,
      [user.id],
    );
    expect(meter).toEqual({ n: 2, cents: 8 });
  });

  it('skips (exit 3) while another instance holds the advisory lock', async () => {
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query(`SELECT pg_advisory_xact_lock($1)`, [BILLING_CYCLE_LOCK_KEY]);
      const { lines, io } = capture();
      expect(await runBillingCycleCommand([nextCycle()], env({ DATABASE_URL: t.database.url }), io)).toBe(3);
      expect(JSON.parse(lines.out)).toMatchObject({
        ran: false,
        skipped: 'Another instance is running the billing cycle.',
      });
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
