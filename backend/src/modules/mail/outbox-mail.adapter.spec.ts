import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { buildConfig } from '../../config/config.js';
import { createMailPort } from './mail.module.js';
import type { OutboxMailAdapter } from './outbox-mail.adapter.js';

describe('the mail outbox', () => {
  const link = 'https://botsmith.example/reset-password/tok_SECRET_123';
  let dataDir: string;
  let logged: string[];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'botsmith-outbox-'));
    logged = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => {
      logged.push(String(message));
    });
  });

  afterEach(() => {
    jest.restoreAllMocks();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function sendWith(env: NodeJS.ProcessEnv): Promise<string> {
    const port = (await createMailPort(buildConfig({ ...env, DATA_DIR: dataDir }, '/repo'))) as OutboxMailAdapter;
    expect(port.kind).toBe('outbox');
    await port.send({ to: 'owner@example.com', subject: 'Reset your password', text: link, html: link, link });
    const files = fs.readdirSync(port.outboxDir);
    expect(files).toHaveLength(1);
    // The mail itself always carries the link (it is the only way to read it without SMTP).
    expect(fs.readFileSync(path.join(port.outboxDir, files[0]), 'utf8')).toContain('tok_SECRET_123');
    expect(logged).toHaveLength(1);
    return logged[0];
  }

  it('logs the link on a development start, so a fresh machine can verify an account', async () => {
    expect(await sendWith({})).toMatch(
      /^Mail "Reset your password" to owner@example.com written to .*; link: https:\/\/botsmith.example\/reset-password\/tok_SECRET_123$/,
    );
  });

  it('never logs the link (a token) in production, even as a demo', async () => {
    const line = await sendWith({
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      ALLOW_DEMO_ADAPTERS: 'true',
    });
    expect(line).toMatch(/^Mail "Reset your password" to owner@example.com written to /);
    expect(line).not.toContain('tok_SECRET_123');
    expect(line).not.toContain('link');
  });

  it('names files so they sort in the order mails were handed over, even when built at once', async () => {
    const port = (await createMailPort(buildConfig({ DATA_DIR: dataDir }, '/repo'))) as OutboxMailAdapter;
    // Larger mails first: they take longer to build, so they would be written last.
    const sizes = Array.from({ length: 30 }, (_, i) => (30 - i) * 20_000);
    await Promise.all(
      sizes.map((size, i) =>
        port.send({ to: 'owner@example.com', subject: `Mail ${i}`, text: 'x'.repeat(size), html: 'x' }),
      ),
    );
    const subjects = fs
      .readdirSync(port.outboxDir)
      .sort()
      .map((f) => fs.readFileSync(path.join(port.outboxDir, f), 'utf8').match(/^Subject: (.*)$/m)?.[1]);
    expect(subjects).toEqual(sizes.map((_, i) => `Mail ${i}`));
  });
});
