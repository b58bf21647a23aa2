import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BotsService } from '../../src/modules/bots/bots.service.js';
import { createChatBot, listen, messagesOfBot } from '../support/chat-factories.js';
import { createUser } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * docs/chat-api.md's examples, run as written against a test server: the curl block through the
 * shell, the Node block as a file run by a child `node`. A change to the chat API that breaks them
 * fails here, so the page cannot rot.
 */
const run = promisify(execFile);
const PAGE = path.resolve(import.meta.dirname, '../../../docs/chat-api.md');

/** The page's fenced code blocks of one language, in order. */
function blocks(language: string): string[] {
  const text = fs.readFileSync(PAGE, 'utf8');
  return [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}

let t: TestApp;
let env: NodeJS.ProcessEnv;
let botId: number;
let ownerId: number;
let dir: string;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
  const base = await listen(t);
  const owner = await createUser(t);
  const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example.com' });
  botId = bot.id;
  ownerId = owner.id;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-api-docs-'));
  env = { PATH: process.env.PATH, BOTSMITH_URL: base, BOT_ID: String(bot.id), BOT_API_KEY: bot.apiKey };
});

afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('docs/chat-api.md', () => {
  it('has two curl examples (the second with a visitor token), one Node example and the three signing snippets', () => {
    expect(blocks('sh')).toHaveLength(2);
    expect(blocks('js')).toHaveLength(1);
    for (const language of ['javascript', 'python', 'php']) expect(blocks(language)).toHaveLength(1);
  });

  it("the curl example gets the bot's answer as JSON (the domain lock does not apply with the key)", async () => {
    const { stdout } = await run('sh', ['-c', blocks('sh')[0]], { env, timeout: 30_000 });
    const answer = JSON.parse(stdout) as { message: string; citations: unknown[] };
    expect(typeof answer.message).toBe('string');
    expect(answer.message.length).toBeGreaterThan(0);
    expect(answer.citations).toEqual([]);
    const logged = await messagesOfBot(t, botId);
    expect(logged.filter((m) => m.role === 'user').map((m) => m.content)).toContain('When are you open?');
  });

  it("the Node example prints the bot's answer, and reports a refusal with its code", async () => {
    const file = path.join(dir, 'ask.mjs');
    fs.writeFileSync(file, blocks('js')[0]);
    const { stdout } = await run(process.execPath, [file], { env, timeout: 30_000 });
    expect(stdout.trim().length).toBeGreaterThan(0);
    const logged = await messagesOfBot(t, botId);
    expect(logged.at(-1)).toEqual(expect.objectContaining({ role: 'assistant', content: stdout.trim() }));

    const refused = await run(process.execPath, [file], { env: { ...env, BOT_API_KEY: 'not-the-key' } }).then(
      () => null,
      (error: { stderr: string }) => error.stderr,
    );
    expect(refused).toContain('401 INVALID_API_KEY: The API key does not belong to this bot.');
  });

  describe('Verified visitors: the signing snippets make tokens the server accepts', () => {
    /** Whether `command` is installed here (PHP often is not: its snippet is then skipped, and says so). */
    function installed(command: string): boolean {
      try {
        execFileSync(command, ['--version'], { stdio: 'ignore', timeout: 10_000 });
        return true;
      } catch {
        return false;
      }
    }

    /** Each snippet with one call after it that prints the token of user 42 for the bot's secret. */
    const SNIPPETS = [
      {
        language: 'javascript',
        command: process.execPath,
        file: 'sign.mjs',
        call: "console.log(visitorToken({ id: 42, name: 'Ana Lima', email: 'ana@example.com' }, process.env.IDENTITY_SECRET));",
      },
      {
        language: 'python',
        command: 'python3',
        file: 'sign.py',
        call: 'import os\nprint(visitor_token({"id": 42, "name": "Ana Lima", "email": "ana@example.com"}, os.environ["IDENTITY_SECRET"]))',
      },
      {
        language: 'php',
        command: 'php',
        file: 'sign.php',
        call: "echo visitor_token(['id' => 42, 'name' => 'Ana Lima', 'email' => 'ana@example.com'], getenv('IDENTITY_SECRET'));",
      },
    ];

    for (const { language, command } of SNIPPETS.filter((snippet) => !installed(snippet.command))) {
      it.skip(`the ${language} snippet (${command} is not installed here)`, () => undefined);
    }

    const runnable = SNIPPETS.filter((snippet) => installed(snippet.command));
    it.each(runnable)('the $language snippet, with the curl example', async ({ language, command, file, call }) => {
      const { identitySecret } = await t.app.get(BotsService).rotateIdentitySecret(ownerId, botId);
      // One verified visitor (user 42) for every snippet: each run adds its message and answer.
      const before = (await verifiedConversations())[0]?.message_count ?? 0;
      const path_ = path.join(dir, file);
      fs.writeFileSync(path_, `${blocks(language)[0]}\n${call}\n`);
      const { stdout } = await run(command, [path_], {
        env: { ...env, IDENTITY_SECRET: identitySecret },
        timeout: 30_000,
      });
      const token = stdout.trim();
      expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

      const { stdout: answered } = await run('sh', ['-c', blocks('sh')[1]], {
        env: { ...env, VISITOR_JWT: token },
        timeout: 30_000,
      });
      expect(JSON.parse(answered)).toMatchObject({ message: expect.any(String) });
      const verified = await verifiedConversations();
      expect(verified).toEqual([
        {
          visitor_id: expect.stringMatching(/^u-/),
          visitor_name: 'Ana Lima',
          visitor_email: 'ana@example.com',
          message_count: before + 2,
        },
      ]);
      const [conversation] = verified;
      expect(conversation.visitor_id).toMatch(/^u-/);
      expect(await refusedProofs()).toBe(0);
    });

    async function verifiedConversations() {
      return t.dataSource.query<
        Array<{ visitor_id: string; visitor_name: string; visitor_email: string; message_count: number }>
      >(
        `SELECT visitor_id, visitor_name, visitor_email, message_count FROM conversations
          WHERE bot_id = $1 AND visitor_verified`,
        [botId],
      );
    }

    async function refusedProofs(): Promise<number> {
      const [row] = await t.dataSource.query<Array<{ n: string }>>(
        `SELECT COALESCE(SUM(count), 0) AS n FROM identity_refusals WHERE bot_id = $1`,
        [botId],
      );
      return Number(row.n);
    }
  });
});
