import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
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
let dir: string;

beforeAll(async () => {
  t = await startTestApp({ OFFLINE_MODEL_WORD_DELAY_MS: '0' });
  const base = await listen(t);
  const owner = await createUser(t);
  const bot = await createChatBot(t, owner.id, { allowedDomain: 'shop.example.com' });
  botId = bot.id;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-api-docs-'));
  env = { PATH: process.env.PATH, BOTSMITH_URL: base, BOT_ID: String(bot.id), BOT_API_KEY: bot.apiKey };
});

afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('docs/chat-api.md', () => {
  it('has one curl example and one Node example', () => {
    expect(blocks('sh')).toHaveLength(1);
    expect(blocks('js')).toHaveLength(1);
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
});
