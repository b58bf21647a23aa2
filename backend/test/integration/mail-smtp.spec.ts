import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { MailService } from '../../src/modules/mail/mail.service.js';
import { linkIn, parseMail, settle, tokenOf, type ReadMail } from '../support/account-helpers.js';
import { uniqueEmail } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface Received extends ReadMail {
  envelopeFrom: string;
  envelopeTo: string[];
}

/** A real SMTP server in the test process: the app's nodemailer talks SMTP to it over TCP. */
async function startSmtpServer() {
  const received: Received[] = [];
  /** Recipients the server refuses (550), to see how the app copes with a failing mail server. */
  const refused = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(refused.has(address.address) ? new Error('Mailbox unavailable') : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          ...parseMail(Buffer.concat(chunks).toString('utf8')),
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as AddressInfo).port, received, refused };
}

describe('mail over SMTP (SMTP_URL set)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Botsmith Test <accounts@botsmith.test>',
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  });

  async function mailTo(email: string): Promise<Received> {
    await settle(t);
    const mail = smtp.received.filter((m) => m.envelopeTo.includes(email)).at(-1);
    if (!mail) throw new Error(`The SMTP server received no mail for ${email}`);
    return mail;
  }

  it('uses the SMTP adapter and writes nothing to the outbox', () => {
    expect(t.app.get(MailService).transport).toBe('smtp');
  });

  it('delivers the verification mail; its link signs the new owner in', async () => {
    const email = uniqueEmail('smtp');
    // One browser signs up and opens the link (its pre-auth cookie ties the two).
    const agent = t.agent();
    const response = await agent
      .post('/api/auth/signup')
      .set('Origin', t.origin)
      .send({ email, password: 'Smtp!Pass1' });
    expect(response.status).toBe(201);

    const mail = await mailTo(email);
    expect(mail.envelopeFrom).toBe('accounts@botsmith.test');
    expect(mail.from).toBe('Botsmith Test <accounts@botsmith.test>');
    expect(mail.to).toBe(email);
    expect(mail.subject).toBe('Verify your email for Botsmith');
    expect(mail.text.length).toBeGreaterThan(0);
    expect(mail.html).toContain('<a href="');
    const link = linkIn(mail, 'verify-email')!;
    expect(link.startsWith(`${t.config.publicUrl}/verify-email/`)).toBe(true);
    expect(mail.html).toContain(link);

    expect((await agent.get(`/api/auth/verify-email/${tokenOf(link)}`)).status).toBe(200);
    const me = await agent.get('/api/user/me');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    expect(fs.existsSync(path.join(t.dataDir, 'outbox'))).toBe(false);
  });

  it('delivers the reset mail; its link sets the new password', async () => {
    const email = uniqueEmail('smtp-reset');
    await t.http().post('/api/auth/signup').set('Origin', t.origin).send({ email, password: 'Smtp!Pass1' }).expect(201);
    await t.http().post('/api/auth/forgot-password').set('Origin', t.origin).send({ email }).expect(200);

    const mail = await mailTo(email);
    expect(mail.subject).toBe('Reset your Botsmith password');
    const link = linkIn(mail, 'reset-password')!;
    expect(link.startsWith(`${t.config.publicUrl}/reset-password/`)).toBe(true);
    const reset = await t
      .http()
      .post(`/api/auth/reset-password/${tokenOf(link)}`)
      .set('Origin', t.origin)
      .send({ password: 'Smtp!Reset2' });
    expect(reset.status).toBe(200);
    const login = await t
      .http()
      .post('/api/auth/login')
      .set('Origin', t.origin)
      .send({ email, password: 'Smtp!Reset2' });
    expect(login.status).toBe(200);
  });

  it('still answers signup the same way when the SMTP server refuses the mail (failure is logged)', async () => {
    const email = uniqueEmail('smtp-down');
    smtp.refused.add(email);
    const response = await t
      .http()
      .post('/api/auth/signup')
      .set('Origin', t.origin)
      .send({ email, password: 'Smtp!Pass1' });
    expect(response.status).toBe(201);
    expect(response.body.message).toContain('Please check your email to verify your account.');
    await settle(t);
    expect(smtp.received.some((m) => m.envelopeTo.includes(email))).toBe(false);
  });
});

describe('mail to the outbox (no SMTP_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes each mail as an .eml file holding both parts and the absolute link', async () => {
    expect(t.app.get(MailService).transport).toBe('outbox');
    const email = uniqueEmail('outbox');
    await t
      .http()
      .post('/api/auth/signup')
      .set('Origin', t.origin)
      .send({ email, password: 'Outbox!Pass1' })
      .expect(201);
    await settle(t);

    const dir = path.join(t.dataDir, 'outbox');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const raw = fs.readFileSync(path.join(dir, files[0]), 'utf8');
    expect(raw).toMatch(/^Content-Type: multipart\/alternative/m);
    expect(raw).toMatch(/^Content-Type: text\/plain/m);
    expect(raw).toMatch(/^Content-Type: text\/html/m);
    const mail = parseMail(raw);
    expect(mail.to).toBe(email);
    expect(mail.from).toBe(t.config.mail.from);
    const link = linkIn(mail, 'verify-email')!;
    expect(link).toMatch(new RegExp(`^${t.config.publicUrl}/verify-email/[A-Za-z0-9_-]{43}$`));
    // The e2e helper reads links after undoing quoted-printable soft line breaks only.
    expect(raw.replace(/=\r?\n/g, '')).toContain(link);
    expect((fs.statSync(path.join(dir, files[0])).mode & 0o077).toString(8)).toBe('0');
  });
});
