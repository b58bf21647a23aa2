#!/usr/bin/env node
/* global document, window, Image, MediaRecorder -- used inside page.evaluate callbacks and in Chromium */
/**
 * Regenerates the landing page's pictures and demo video in frontend/public/landing/ from the
 * real product: the built app, its real HTTP API and the real embeddable widget, in Chromium.
 *
 *   npm run build                                  (once: the script runs backend/dist/bundle/main.mjs)
 *   node e2e/capture-landing-media.mjs             (CHROMIUM_PATH overrides /usr/bin/chromium)
 *
 * What it does:
 * 1. Starts a small local server that speaks the OpenAI Chat Completions API (streamed
 *    `chat.completion.chunk` events, a final usage chunk, [DONE]) and answers each scripted
 *    visitor question with a scripted answer, word by word. The embedded offline demo model would
 *    prefix its answers with "(Offline demo model)"; this way the answers go through the app's
 *    production path (the `openai` SDK adapter) and read like a real model's.
 * 2. Starts the built app as `npm start` does (node backend/dist/bundle/main.mjs) on a free port with a
 *    fresh temporary DATA_DIR (embedded PGlite, mail to DATA_DIR/outbox, test-mode payments),
 *    with OPENAI_API_KEY and OPENAI_BASE_URL pointing at that server.
 * 3. Through the app's HTTP API: signs an owner up, verifies the e-mail with the outbox link,
 *    signs in, adds the 4242 test card on the built-in test-mode payment page, creates six bots
 *    and sets each one's styling (Styling tab fields), greeting, model and prompt.
 * 4. Example cards: opens each of the five example bots on the product's own
 *    /widget?botId=ID page, types the scripted questions and presses Enter, waits for each
 *    streamed answer, and screenshots the chat window element (drop shadow off, transparent
 *    corners) at 2x: {slug}-card-sm.webp (256 px), {slug}-card.webp (440 px), {slug}-full.webp (700 px).
 * 5. Demo (#info): a customer's site ("Lumen Coffee Co.", static HTML on another origin,
 *    127.0.0.2) embeds the real widget snippet of the sixth bot. Chromium's screencast records,
 *    in real time, the pointer opening the launcher, the question being typed and sent, the dots
 *    and the streamed answer; the frames are resampled to 15 fps and encoded by MediaRecorder
 *    into demo.webm (VP9) and demo.mp4 (H.264), 960x600. demo-poster.webp is the last frame;
 *    demo-mobile.webp is the same visit on a 390x720 phone after the answer.
 * Pictures are encoded to WebP through a canvas, so no image or video tool is needed.
 * Everything it started (app, model server, site, browser, data folder) is removed at the end.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './support/chromium.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');
const outDir = path.join(repoRoot, 'frontend/public/landing');
const appMain = path.join(repoRoot, 'backend/dist/bundle/main.mjs');
const PASSWORD = 'Capture!pass1';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Colours are stored as gradients; a solid colour is the same colour twice. */
const solid = (hex) => `linear-gradient(to right, ${hex}, ${hex})`;

/**
 * The five example bots of the landing page's cards (names and looks as landingContent.ts
 * describes them), each with the owner's settings and a scripted conversation:
 * [visitor question, model answer] pairs, the answers in the Markdown a model writes.
 */
const examples = [
  {
    slug: 'ecommerce',
    name: 'Shopwell Assistant',
    settings: {
      customGreeting: 'Hi there! Looking for something special today?',
      model: 'gpt-4o-mini',
      prompt:
        'You are the shopping assistant of Shopwell, an online store for running and outdoor shoes. Help visitors with sizes, stock, shipping and returns. Shipping is free over $50; returns are free within 30 days.',
      bannerColor: 'linear-gradient(135deg, #ff7a59, #ff3d77)',
      bannerTextColor: solid('#ffffff'),
      bannerDisclaimer: 'AI replies can be wrong. Check at checkout.',
      widgetBubbleColor: 'linear-gradient(135deg, #ff7a59, #ff3d77)',
      assistantBubbleColor: solid('#fff1ec'),
      assistantBubbleTextColor: solid('#3b1d14'),
      widgetBackgroundColor: solid('#ffffff'),
      sendButtonColor: 'linear-gradient(135deg, #ff7a59, #ff3d77)',
      sendArrowColor: solid('#ffffff'),
      placeholderText: 'Ask about sizes, orders, returns...',
      placeholderTextColor: solid('#b08a80'),
      chatWindowBorderRadius: '18px',
      bubbleColor: 'linear-gradient(135deg, #ff7a59, #ff3d77)',
      bubbleTextColor: solid('#ffffff'),
      bubbleBorderRadius: '50%',
      animation: 'blowup',
      widgetPosition: 'right',
    },
    conversation: [
      [
        'Do the Ridge trail runners come in size 11?',
        'Yes! The **Ridge Trail Runner** is in stock in size 11, in Slate and Sunset Orange.',
      ],
      ['And if they don’t fit?', 'No problem: returns are free within 30 days, unworn.'],
    ],
  },
  {
    slug: 'coach',
    name: 'Coach Maya',
    settings: {
      customGreeting: 'Ready to plan your week?',
      model: 'gpt-4o',
      prompt:
        'You are Coach Maya, a friendly personal trainer. Suggest simple, safe home workouts that fit the visitor’s time. Do not give medical advice.',
      bannerColor: 'linear-gradient(to right, #6d28d9, #a855f7)',
      bannerTextColor: solid('#ffffff'),
      bannerDisclaimer: 'General fitness guidance, not medical advice.',
      widgetBubbleColor: 'linear-gradient(to right, #7c3aed, #a855f7)',
      assistantBubbleColor: solid('#f1ebff'),
      assistantBubbleTextColor: solid('#2e1065'),
      widgetBackgroundColor: 'linear-gradient(to bottom, #fdfcff, #f6f1ff)',
      sendButtonColor: 'linear-gradient(to right, #7c3aed, #a855f7)',
      sendArrowColor: solid('#ffffff'),
      placeholderText: 'Tell Maya about your goals...',
      placeholderTextColor: solid('#9d8fc4'),
      chatWindowBorderRadius: '28px',
      bubbleColor: 'linear-gradient(to right, #7c3aed, #a855f7)',
      bubbleTextColor: solid('#ffffff'),
      bubbleBorderRadius: '50%',
      animation: 'glow',
      widgetPosition: 'right',
    },
    conversation: [
      [
        'I only have 30 minutes a day. Can I build strength?',
        'Absolutely! Three full-body sessions a week:\n\n- Squats, push-ups, rows\n- 3 rounds of 10 each',
      ],
      ['And on the other days?', 'A brisk 20-minute walk keeps you moving while you recover.'],
    ],
  },
  {
    slug: 'tech-blog',
    name: 'DevNotes Bot',
    settings: {
      customGreeting: 'Hey! Ask me anything about the articles on this blog.',
      model: 'gpt-4-turbo',
      prompt:
        'You answer questions about the articles of DevNotes, a blog about React and TypeScript. Answer from the articles, briefly, and name the article you used.',
      bannerColor: 'linear-gradient(to right, #0f172a, #1e293b)',
      bannerTextColor: solid('#e2e8f0'),
      bannerDisclaimer: 'Answers come from articles on this blog.',
      widgetBubbleColor: 'linear-gradient(to right, #0e7490, #0891b2)',
      assistantBubbleColor: solid('#1e293b'),
      assistantBubbleTextColor: solid('#e2e8f0'),
      widgetBackgroundColor: solid('#0b1120'),
      sendButtonColor: 'linear-gradient(135deg, #06b6d4, #22d3ee)',
      sendArrowColor: solid('#04131a'),
      placeholderText: 'Ask about any post...',
      placeholderTextColor: solid('#64748b'),
      chatWindowBorderRadius: '10px',
      bubbleColor: 'linear-gradient(135deg, #0891b2, #22d3ee)',
      bubbleTextColor: solid('#04131a'),
      bubbleBorderRadius: '16px',
      animation: 'slide',
      widgetPosition: 'right',
    },
    conversation: [
      [
        'useMemo or useCallback?',
        '`useMemo` caches a **value**, `useCallback` a **function**. Both update only when their dependencies change.',
      ],
      ['Which post covers this?', '“React hooks in practice”, part 2 of the hooks series.'],
    ],
  },
  {
    slug: 'support',
    name: 'Acme Support',
    settings: {
      customGreeting: 'Hello! How can I help you today?',
      model: 'gpt-3.5-turbo',
      prompt:
        'You are the support assistant of Acme. Help customers with their accounts and orders. Password reset links are valid for one hour.',
      bannerColor: solid('#2ecc71'),
      bannerTextColor: solid('#ffffff'),
      bannerDisclaimer: 'Our AI assistant, trained on our help center.',
      widgetBubbleColor: solid('#2ecc71'),
      assistantBubbleColor: solid('#f1f0f0'),
      assistantBubbleTextColor: solid('#000000'),
      widgetBackgroundColor: solid('#ffffff'),
      sendButtonColor: solid('#2ecc71'),
      sendArrowColor: solid('#ffffff'),
      placeholderText: 'Type your message here...',
      placeholderTextColor: solid('#999999'),
      chatWindowBorderRadius: '10px',
      bubbleColor: solid('#2ecc71'),
      bubbleTextColor: solid('#ffffff'),
      bubbleBorderRadius: '50%',
      animation: 'none',
      widgetPosition: 'right',
    },
    conversation: [
      [
        'I can’t log in to my account.',
        'Sorry about that! Click **Forgot password** on the login page and we’ll email you a reset link. It’s valid for one hour.',
      ],
      ['Got it, thanks!', 'Happy to help. Anything else?'],
    ],
  },
  {
    slug: 'hr',
    name: 'PeopleHub HR',
    settings: {
      customGreeting: 'Hi! Ask me about benefits, leave and payroll.',
      model: 'gpt-4o-mini',
      prompt:
        'You are the HR help desk of PeopleHub. Answer staff questions about leave, benefits and payroll from the handbook. Full-time staff get 25 days of vacation; up to 5 unused days carry over.',
      bannerColor: 'linear-gradient(135deg, #1d4ed8, #3b82f6)',
      bannerTextColor: solid('#ffffff'),
      bannerDisclaimer: 'Policy questions only. Personal cases go to HR.',
      widgetBubbleColor: 'linear-gradient(135deg, #2563eb, #3b82f6)',
      assistantBubbleColor: solid('#eef4ff'),
      assistantBubbleTextColor: solid('#172554'),
      widgetBackgroundColor: solid('#ffffff'),
      sendButtonColor: 'linear-gradient(135deg, #2563eb, #3b82f6)',
      sendArrowColor: solid('#ffffff'),
      placeholderText: 'Ask about leave, benefits, payroll...',
      placeholderTextColor: solid('#8aa0c8'),
      chatWindowBorderRadius: '14px',
      bubbleColor: 'linear-gradient(135deg, #2563eb, #3b82f6)',
      bubbleTextColor: solid('#ffffff'),
      bubbleBorderRadius: '50%',
      animation: 'drop',
      widgetPosition: 'right',
    },
    conversation: [
      [
        'How many vacation days do I get?',
        'Full-time employees get **25 days** of paid vacation a year, plus public holidays.',
      ],
      ['Do unused days carry over?', 'Yes, up to 5 days carry over to the next year.'],
    ],
  },
];

/** The bot on the customer's site in the demo video. */
const coffeeBot = {
  slug: 'demo',
  name: 'Bean, Lumen Coffee',
  settings: {
    customGreeting: 'Hi! I’m Bean, Lumen’s coffee helper. Ask me about orders, brewing or our beans.',
    model: 'gpt-4o-mini',
    prompt:
      'You are Bean, the assistant of Lumen Coffee Co., a small-batch roaster. Recommend beans and brewing methods and answer questions about orders. Keep it short and warm.',
    bannerColor: 'linear-gradient(135deg, #7c4a2d, #b7791f)',
    bannerTextColor: solid('#ffffff'),
    bannerDisclaimer: 'AI assistant. Answers may be imperfect.',
    widgetBubbleColor: 'linear-gradient(135deg, #8b5a2b, #b7791f)',
    assistantBubbleColor: solid('#f6efe7'),
    assistantBubbleTextColor: solid('#3b2416'),
    widgetBackgroundColor: solid('#ffffff'),
    sendButtonColor: solid('#8b5a2b'),
    sendArrowColor: solid('#ffffff'),
    placeholderText: 'Type your message here...',
    placeholderTextColor: solid('#a08a7a'),
    chatWindowBorderRadius: '16px',
    bubbleColor: solid('#8b5a2b'),
    bubbleTextColor: solid('#ffffff'),
    bubbleBorderRadius: '50%',
    animation: 'blowup',
    widgetPosition: 'right',
  },
  conversation: [
    [
      'Which beans are best for espresso?',
      'Try our **Dark Forest** blend: chocolate and hazelnut notes, roasted medium-dark. Grind fine: 18 g in, 36 g out in about 28 seconds.',
    ],
    // Asked on the phone only, where the window fills the screen.
    [
      'How fresh is it when it arrives?',
      'Very fresh! We roast every Monday and ship within 48 hours, so your beans arrive at their best.',
    ],
  ],
};

// ---------------------------------------------------------------------------------------------
// A scripted model behind the OpenAI Chat Completions API

/**
 * Answers POST /v1/chat/completions as OpenAI does when streaming with include_usage: SSE
 * `chat.completion.chunk` events (role, then one per word), a finish chunk, a usage chunk and
 * [DONE]. The answer is the scripted one for the visitor's last message. `pace` sets how long it
 * "thinks" before the first word and how long each word takes.
 */
async function startScriptedModel(bots) {
  const answers = new Map(bots.flatMap((bot) => bot.conversation.map(([q, a]) => [q.trim(), a])));
  const model = { pace: { thinkMs: 100, wordMs: 8 }, answered: 0, unknown: [] };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error' } }));
        return;
      }
      const body = JSON.parse(raw || '{}');
      const question =
        [...(body.messages ?? [])]
          .reverse()
          .find((m) => m.role === 'user')
          ?.content?.trim() ?? '';
      let answer = answers.get(question);
      if (!answer) {
        model.unknown.push(question);
        answer = 'Sorry, I don’t know that one yet.';
      }
      const pieces = answer.split(/(?<=\s)/);
      const usage = {
        prompt_tokens: Math.ceil(JSON.stringify(body.messages ?? []).length / 4),
        completion_tokens: pieces.length,
        total_tokens: Math.ceil(JSON.stringify(body.messages ?? []).length / 4) + pieces.length,
      };
      const upstream = String(body.model ?? 'gpt-4o-mini');
      if (body.stream !== true) {
        model.answered += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-capture',
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: upstream,
            choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
            usage,
          }),
        );
        return;
      }
      let gone = false;
      res.on('close', () => (gone = !res.writableFinished));
      const chunk = (choice, chunkUsage = null) =>
        `data: ${JSON.stringify({
          id: 'chatcmpl-capture',
          object: 'chat.completion.chunk',
          created: Math.floor(Date.now() / 1000),
          model: upstream,
          choices: choice ? [{ index: 0, ...choice }] : [],
          usage: chunkUsage,
        })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      void (async () => {
        const { thinkMs, wordMs } = model.pace;
        await sleep(thinkMs);
        if (gone) return;
        res.write(chunk({ delta: { role: 'assistant', content: '' }, finish_reason: null }));
        for (const piece of pieces) {
          // A little irregular, like a model's tokens.
          await sleep(wordMs * (0.6 + Math.random() * 0.8));
          if (gone) return;
          res.write(chunk({ delta: { content: piece }, finish_reason: null }));
        }
        res.write(chunk({ delta: {}, finish_reason: 'stop' }));
        res.write(chunk(null, usage));
        res.end('data: [DONE]\n\n');
        model.answered += 1;
      })();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  model.baseUrl = `http://127.0.0.1:${server.address().port}/v1`;
  model.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return model;
}

// ---------------------------------------------------------------------------------------------
// The built app (as e2e/support/app-server.ts starts it) and its outbox (e2e/support/outbox.ts)

function freePort(host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startApp(env) {
  const port = await freePort('127.0.0.1');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'botsmith-capture-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const inherited = { ...process.env };
  for (const key of ['DATABASE_URL', 'SMTP_URL', 'STRIPE_SECRET_KEY', 'S3_BUCKET', 'REDIS_URL', 'OPENAI_MODEL_MAP']) {
    delete inherited[key];
  }
  const child = spawn(process.execPath, [appMain], {
    env: {
      ...inherited,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const app = {
    baseUrl,
    dataDir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(10_000)]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await app.stop();
      throw new Error(`The app exited during start (code ${child.exitCode}):\n${output}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await app.stop();
      throw new Error(`The app did not become healthy within 60 s:\n${output}`);
    }
    await sleep(150);
  }
  return app;
}

/** The first link matching `pattern` in the newest mail to `to` in DATA_DIR/outbox/*.eml. */
async function linkFromOutbox(dataDir, to, pattern) {
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const names = existsSync(outbox) ? (await fs.readdir(outbox)).filter((f) => f.endsWith('.eml')) : [];
    for (const name of names) {
      const text = (await fs.readFile(path.join(outbox, name), 'utf8')).replace(/=\r?\n/g, '');
      const match = text.toLowerCase().includes(to) ? text.match(pattern) : null;
      if (match) return match[0];
    }
    if (Date.now() > deadline) throw new Error(`No mail to ${to} with a link matching ${pattern} in ${outbox}`);
    await sleep(200);
  }
}

// ---------------------------------------------------------------------------------------------
// The owner, the bots

/** A launcher icon for the demo bot: a coffee bean on the brand's brown, drawn and shot in Chromium. */
async function beanIcon(browser) {
  const context = await browser.newContext({ viewport: { width: 128, height: 128 } });
  const tab = await context.newPage();
  await tab.setContent(`<!doctype html><body style="margin:0">
    <div id="i" style="width:128px;height:128px;background:radial-gradient(circle at 35% 30%, #b7791f, #7c4a2d 70%);display:grid;place-items:center">
      <svg viewBox="0 0 24 24" width="64" height="64">
        <ellipse cx="12" cy="12" rx="6" ry="8.5" transform="rotate(35 12 12)" fill="#fff7ed"/>
        <path d="M8.3 17.2c3-2.2 4.2-7.2 7.4-10.4" stroke="#8b5a2b" stroke-width="1.7" fill="none" stroke-linecap="round"/>
      </svg>
    </div></body>`);
  const png = await tab.locator('#i').screenshot();
  await context.close();
  return png;
}

/**
 * Signs a new owner up and in through the API, pays with the test card on the test-mode payment
 * page, creates the bots and applies their settings. Sets `bot.id` on each.
 */
async function createBots(browser, app, bots, icons) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const api = async (method, url, options = {}) => {
    const response = await context.request.fetch(`${app.baseUrl}${url}`, {
      method,
      headers: { Origin: app.baseUrl },
      ...options,
    });
    if (!response.ok()) throw new Error(`${method} ${url}: ${response.status()} ${await response.text()}`);
    return response.json();
  };
  const email = `landing-${Date.now()}@example.com`;
  await api('POST', '/api/auth/signup', { data: { email, password: PASSWORD } });
  const link = await linkFromOutbox(app.dataDir, email, /verify-email\/[A-Za-z0-9_-]+/);
  await api('GET', `/api/auth/verify-email/${link.split('/').pop()}`);
  await api('POST', '/api/auth/login', { data: { email, password: PASSWORD } });

  const page = await context.newPage();
  await page.goto(`${app.baseUrl}/complete-setup`);
  await page.waitForURL(/\/billing\/test-checkout\/cs_test_/, { timeout: 30_000 });
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 39');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Save card' }).click();
  await page.waitForURL(`${app.baseUrl}/dashboard`, { timeout: 30_000 });

  for (const bot of bots) {
    const { bot: created } = await api('POST', '/api/bots', { data: { botName: bot.name } });
    bot.id = created.id;
    await api('PUT', `/api/bots/${bot.id}`, { data: bot.settings });
    const icon = icons[bot.slug];
    if (icon) {
      await api('POST', `/api/upload/icon/${bot.id}`, {
        multipart: { icon: { name: `${bot.slug}.png`, mimeType: 'image/png', buffer: icon } },
      });
    }
  }
  await context.close();
}

// ---------------------------------------------------------------------------------------------
// Driving the widget

/** The state of the one widget in `frame` (a page or an iframe), read through its open shadow root. */
function widgetState(frame) {
  return frame.evaluate(() => {
    const root = document.querySelector('botsmith-widget')?.shadowRoot;
    const answers = root ? [...root.querySelectorAll('.m.assistant:not(.dots):not([aria-busy])')] : [];
    return {
      answers: answers.length,
      last: answers.at(-1)?.textContent ?? '',
      busy: root?.querySelector('button.s')?.disabled ?? true,
      errors: root ? [...root.querySelectorAll('.m.error')].map((e) => e.textContent) : [],
    };
  });
}

/** Presses Enter in the focused message box and waits until the answer has streamed in completely. */
async function sendAndWait(frame, keyboard, bot) {
  const before = (await widgetState(frame)).answers;
  await keyboard.press('Enter');
  const deadline = Date.now() + 45_000;
  for (;;) {
    const state = await widgetState(frame);
    if (state.errors.length > 0) throw new Error(`${bot.name}: the widget shows an error: ${state.errors.join(' | ')}`);
    if (state.answers > before && !state.busy) {
      if (/offline demo model/i.test(state.last)) throw new Error(`${bot.name}: answered by the offline demo model`);
      return state.last;
    }
    if (Date.now() > deadline) throw new Error(`${bot.name}: no complete answer within 45 s`);
    await sleep(50);
  }
}

/** No focus ring, no scrollbar (it hides 1.5 s after the last scroll), no hover. */
async function settle(page, frame = page) {
  await page.mouse.move(1, 1);
  await frame.evaluate(() => {
    const root = document.querySelector('botsmith-widget')?.shadowRoot;
    if (root?.activeElement instanceof window.HTMLElement) root.activeElement.blur();
  });
  await sleep(1700);
}

/** Warns when the conversation no longer fits the window (its top would be scrolled away). */
async function checkFits(frame, bot) {
  const overflow = await frame.evaluate(() => {
    const log = document.querySelector('botsmith-widget')?.shadowRoot?.querySelector('.log');
    return log ? log.scrollHeight - log.clientHeight : 0;
  });
  if (overflow > 1) console.warn(`warning: ${bot.slug}: the conversation is ${overflow}px taller than the window`);
}

// ---------------------------------------------------------------------------------------------
// Encoding

/** Re-encodes a PNG as WebP at the given width (height keeps the ratio), inside Chromium. */
async function toWebp(encoder, png, width, quality) {
  const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
  const out = await encoder.evaluate(
    async ({ dataUrl, width, quality }) => {
      const img = new Image();
      img.src = dataUrl;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = Math.round((img.naturalHeight * width) / img.naturalWidth);
      const ctx = canvas.getContext('2d');
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      return { url: canvas.toDataURL('image/webp', quality), height: canvas.height };
    },
    { dataUrl, width, quality },
  );
  return { data: Buffer.from(out.url.split(',')[1], 'base64'), height: out.height };
}

/**
 * The landing page's byte budget per picture (Lighthouse): about what the earlier pictures weighed.
 * Each picture gets the best quality up to its maximum that stays within its budget.
 */
const BUDGET_KIB = { 'card-sm': 11, card: 23.5, full: 46, 'demo-poster': 30, 'demo-mobile': 36 };

async function toWebpWithin(encoder, png, width, maxQuality, budgetKiB) {
  for (let quality = maxQuality; ; quality -= 0.03) {
    const { data } = await toWebp(encoder, png, width, quality);
    if (data.length <= budgetKiB * 1024 || quality < 0.55) return data;
  }
}

async function write(name, data) {
  await fs.writeFile(path.join(outDir, name), data);
  console.log(`${name.padEnd(28)} ${(data.length / 1024).toFixed(1).padStart(7)} KiB`);
}

// ---------------------------------------------------------------------------------------------
// The five example cards

/** Each example bot on /widget?botId=ID, after its conversation: two thumbnail sizes and a large picture. */
async function captureExamples(browser, encoder, app, model) {
  model.pace = { thinkMs: 100, wordMs: 8 };
  for (const bot of examples) {
    // Wider than 480 px, where the window would go full screen; 2x for the 700 px picture.
    const context = await browser.newContext({ viewport: { width: 600, height: 560 }, deviceScaleFactor: 2 });
    const page = await context.newPage();
    const chatWindow = page.locator('botsmith-widget .w');
    // Tries again if the page's assets change under it (a concurrent `npm run build` of the frontend).
    for (let attempt = 1; ; attempt += 1) {
      await page.goto(`${app.baseUrl}/widget?botId=${bot.id}`);
      try {
        await chatWindow.waitFor({ timeout: 20_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    const box = page.locator('botsmith-widget textarea');
    for (const [question] of bot.conversation) {
      await box.click();
      await box.fill(question);
      await sendAndWait(page, page.keyboard, bot);
    }
    await settle(page);
    await checkFits(page, bot);
    // A clean cut-out: the page behind the rounded corners transparent, the window's drop shadow
    // (drawn outside it, but visible in the corners) off.
    await page.evaluate(() => {
      document.documentElement.style.background = 'transparent';
      document.body.style.background = 'transparent';
      document.querySelector('botsmith-widget').shadowRoot.querySelector('.w').style.boxShadow = 'none';
    });
    const png = await chatWindow.screenshot({ omitBackground: true });
    await write(`${bot.slug}-card-sm.webp`, await toWebpWithin(encoder, png, 256, 0.8, BUDGET_KIB['card-sm']));
    await write(`${bot.slug}-card.webp`, await toWebpWithin(encoder, png, 440, 0.8, BUDGET_KIB.card));
    await write(`${bot.slug}-full.webp`, await toWebpWithin(encoder, png, 700, 0.85, BUDGET_KIB.full));
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The demo: the customer's site with the real snippet

/** Lumen Coffee Co.'s home page, with the bot's snippet and a visible pointer for the video. */
function sitePage(app, botId, showPointer) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lumen Coffee Co.</title>
<style>
  * { box-sizing: border-box; margin: 0; }
  body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; -webkit-font-smoothing: antialiased;
    background: #fbf7f2; color: #2b1a10; min-height: 100vh; overflow: hidden; }
  .nav { display: flex; gap: 22px; align-items: center; padding: 16px 40px; font-size: 14px; border-bottom: 1px solid #eadfd3; }
  .nav b { font-size: 17px; margin-right: auto; }
  .nav span { color: #6b5443; }
  .hero { display: flex; gap: 30px; align-items: center; padding: 40px 40px 26px; }
  .hero h1 { font-size: 36px; line-height: 1.1; letter-spacing: -.02em; max-width: 440px; }
  .hero p { margin: 12px 0 18px; color: #6b5443; max-width: 400px; font-size: 15px; }
  .cta { display: inline-block; background: #2b1a10; color: #fff; border-radius: 999px; padding: 10px 20px; font-weight: 600; font-size: 14px; }
  .bag { width: 190px; height: 190px; border-radius: 28px; background: linear-gradient(160deg, #c08a4f, #5b3a29); transform: rotate(-6deg);
    display: grid; place-items: center; color: #fbf1e4; font-weight: 700; letter-spacing: .08em; font-size: 13px; }
  .products { display: grid; grid-template-columns: repeat(4, 1fr); gap: 16px; padding: 0 40px; }
  .card { background: #fff; border-radius: 14px; padding: 10px; border: 1px solid #eadfd3; font-size: 13px; }
  .pic { height: 96px; border-radius: 10px; opacity: .9; margin-bottom: 8px; }
  .card small { display: block; color: #8a7262; margin-top: 2px; }
  #pointer { position: fixed; left: 0; top: 0; width: 22px; height: 22px; z-index: 2147483647; pointer-events: none; display: none;
    filter: drop-shadow(0 1px 1.5px rgba(0,0,0,.45)); }
  @media (max-width: 600px) {
    .nav { padding: 14px 18px; } .nav span { display: none; }
    .hero { padding: 26px 18px; } .hero h1 { font-size: 26px; } .hero p, .cta, .bag { display: none; }
    .products { grid-template-columns: repeat(2, 1fr); padding: 0 18px; }
  }
</style></head><body>
<div class="nav"><b>Lumen Coffee Co.</b><span>Shop</span><span>Subscriptions</span><span>Brew guides</span><span>Cart (0)</span></div>
<div class="hero">
  <div><h1>Small-batch coffee, roasted every Monday.</h1><p>Single origins and house blends, shipped within 48 hours of roasting.</p><div class="cta">Shop beans</div></div>
  <div class="bag">LUMEN</div>
</div>
<div class="products">${[
    ['#5b3a29', 'Dark Forest', 'Espresso blend · $17'],
    ['#8b5a2b', 'Sunrise', 'Breakfast blend · $15'],
    ['#c08a4f', 'Yirgacheffe', 'Single origin · $19'],
    ['#3f2a1f', 'Night Shift', 'Decaf · $16'],
  ]
    .map(
      ([color, name, line]) =>
        `<div class="card"><div class="pic" style="background:${color}"></div><b>${name}</b><small>${line}</small></div>`,
    )
    .join('')}</div>
<svg id="pointer" viewBox="0 0 24 24"></svg>
<script>
  // The visitor's pointer, drawn so the recording shows it: an arrow, or a hand over buttons.
  (function () {
    if (!${showPointer}) return;
    var pointer = document.getElementById('pointer');
    var arrow = '<path d="M5 2.5v17l4.3-4.1 2.9 6.6 2.9-1.3-2.9-6.5H18z" fill="#111" stroke="#fff" stroke-width="1.3" stroke-linejoin="round"/>';
    var hand = '<path d="M9 3.2c.9 0 1.6.7 1.6 1.6v5.4l.6-.1V8.6c0-.9.7-1.5 1.5-1.5s1.5.7 1.5 1.5v1.6l.6-.1V9.6c0-.8.7-1.4 1.5-1.4s1.5.6 1.5 1.5v1.3c.2-.1.5-.2.8-.2.8 0 1.4.6 1.4 1.4v4.5c0 3.2-2.6 5.8-5.8 5.8h-1.2c-1.9 0-3.6-.9-4.7-2.4L4.4 14.6c-.5-.7-.4-1.6.2-2.1.7-.6 1.7-.5 2.2.2l.6.8V4.8c0-.9.7-1.6 1.6-1.6z" fill="#fff" stroke="#111" stroke-width="1.2" stroke-linejoin="round"/>';
    var shape = '';
    document.addEventListener('mousemove', function (e) {
      var target = e.composedPath()[0];
      var wanted = target instanceof Element && getComputedStyle(target).cursor === 'pointer' ? hand : arrow;
      if (wanted !== shape) pointer.innerHTML = shape = wanted;
      pointer.style.display = 'block';
      pointer.style.transform = 'translate(' + (e.clientX - (shape === hand ? 8 : 4)) + 'px,' + (e.clientY - 2) + 'px)';
    }, true);
  })();
</script>
<script src="${app.baseUrl}/widget.js" data-bot-id="${botId}" async></script>
</body></html>`;
}

/** The demo's browser window: a tab bar and address bar drawn around the site, shown in an iframe. */
function browserPage(query) {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  * { box-sizing: border-box; margin: 0; }
  html, body { height: 100%; overflow: hidden; background: #ece7e1; font-family: system-ui, sans-serif; }
  .chrome { display: flex; align-items: center; gap: 7px; height: 34px; padding: 0 14px; }
  .chrome i { width: 11px; height: 11px; border-radius: 50%; background: #d3c8bd; }
  .url { margin-left: 18px; background: #fff; border-radius: 6px; padding: 3px 14px; font-size: 12px; color: #6b5b4f; width: 40%; }
  iframe { display: block; width: 100%; height: calc(100% - 34px); border: 0; }
</style></head><body>
<div class="chrome"><i></i><i></i><i></i><div class="url">lumencoffee.com</div></div>
<iframe src="/site${query}" title="Lumen Coffee Co."></iframe>
</body></html>`;
}

/** Serves the customer's site on 127.0.0.2, another origin than the app's 127.0.0.1. */
async function startSite(app) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://site');
    const botId = Number(url.searchParams.get('bot'));
    let html;
    if (url.pathname === '/') html = browserPage(url.search);
    else if (url.pathname === '/site') html = sitePage(app, botId, url.searchParams.get('pointer') !== '0');
    if (!html) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.2', resolve));
  return {
    origin: `http://127.0.0.2:${server.address().port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Moves the mouse along a smooth path in real time (Playwright's `steps` are not spaced in time). */
async function glide(page, from, to, ms) {
  const steps = Math.max(2, Math.round(ms / 25));
  for (let i = 1; i <= steps; i += 1) {
    const k = i / steps;
    const ease = k < 0.5 ? 2 * k * k : 1 - (-2 * k + 2) ** 2 / 2;
    await page.mouse.move(from.x + (to.x - from.x) * ease, from.y + (to.y - from.y) * ease);
    await sleep(ms / steps);
  }
}

const center = (box) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

/**
 * The #info demo: on the coffee shop's site, the visitor's pointer opens the launcher, the
 * question is typed and sent, the dots show and the answer streams in. Recorded with Chromium's
 * screencast (frames with their timestamps), resampled to a steady frame rate and encoded by
 * MediaRecorder.
 */
async function captureDemo(browser, encoder, app, model, site) {
  const fps = 15;
  const width = 960;
  const height = 600;
  const [question] = coffeeBot.conversation[0];
  model.pace = { thinkMs: 1100, wordMs: 70 };

  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${site.origin}/?bot=${coffeeBot.id}`);
  const frame = page.frames().find((f) => f.url().includes('/site'));
  const launcher = frame.locator('botsmith-widget button.l');
  await launcher.waitFor();
  await frame.evaluate(() => document.fonts.ready);
  await sleep(1200); // the launcher's entrance animation, the icon loaded

  const shots = [];
  const cdp = await context.newCDPSession(page);
  cdp.on('Page.screencastFrame', ({ data, metadata, sessionId }) => {
    shots.push({ data, t: metadata.timestamp ?? Date.now() / 1000 });
    cdp.send('Page.screencastFrameAck', { sessionId }).catch(() => {});
  });
  const start = { x: 430, y: 330 };
  await page.mouse.move(start.x, start.y);
  await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 90, everyNthFrame: 1 });
  const t0 = Date.now() / 1000;

  await sleep(600);
  const launcherAt = center(await launcher.boundingBox());
  await glide(page, start, launcherAt, 850);
  await sleep(250);
  await page.mouse.down();
  await page.mouse.up();
  const box = frame.locator('botsmith-widget textarea');
  await box.waitFor();
  await sleep(450);
  const boxAt = center(await box.boundingBox());
  await glide(page, launcherAt, { x: boxAt.x - 40, y: boxAt.y }, 600);
  await page.mouse.down();
  await page.mouse.up();
  await sleep(250);
  await page.keyboard.type(question, { delay: 55 });
  await sleep(400);
  const answer = await sendAndWait(frame, page.keyboard, coffeeBot);
  await checkFits(frame, coffeeBot);
  await glide(page, { x: boxAt.x - 40, y: boxAt.y }, { x: boxAt.x - 190, y: boxAt.y - 150 }, 600);
  await sleep(1800);
  const t1 = Date.now() / 1000;
  await cdp.send('Page.stopScreencast');
  const posterPng = await page.screenshot();
  await write('demo-poster.webp', await toWebpWithin(encoder, posterPng, width, 0.8, BUDGET_KIB['demo-poster']));
  await context.close();
  if (shots.length < 2) throw new Error('The screencast delivered no frames');

  // One frame per tick: the newest screencast frame at that moment (the screen did not change in between).
  const first = shots.find((s) => s.t >= t0 - 0.05) ?? shots[0];
  const from = first.t;
  const seconds = t1 - t0;
  const frameDir = await fs.mkdtemp(path.join(os.tmpdir(), 'botsmith-demo-'));
  const files = [];
  const order = [];
  let shown = -1;
  for (let i = 0; i < Math.round(seconds * fps); i += 1) {
    const tick = from + i / fps;
    let k = shown < 0 ? shots.indexOf(first) : shown;
    while (k + 1 < shots.length && shots[k + 1].t <= tick) k += 1;
    if (k !== shown) {
      shown = k;
      const file = `frame-${String(files.length).padStart(4, '0')}.jpg`;
      await fs.writeFile(path.join(frameDir, file), Buffer.from(shots[k].data, 'base64'));
      files.push(file);
    }
    order.push(files.length - 1);
  }
  console.log(
    `demo: ${seconds.toFixed(1)} s recorded, ${shots.length} screencast frames, ${order.length} video frames at ${fps} fps; answer: ${answer.slice(0, 40)}...`,
  );

  // Assemble the frames into a video with MediaRecorder, one requested frame per tick.
  await fs.writeFile(
    path.join(frameDir, 'recorder.html'),
    `<!doctype html><canvas id="c" width="${width}" height="${height}"></canvas>`,
  );
  const recorderContext = await browser.newContext();
  const recorder = await recorderContext.newPage();
  await recorder.goto(`file://${path.join(frameDir, 'recorder.html')}`);
  // Bit rates that keep each file about as small as the landing page's Lighthouse budget allows.
  for (const [mimeType, name, bitsPerSecond] of [
    ['video/webm;codecs=vp9', 'demo.webm', 230_000],
    ['video/mp4;codecs=avc1', 'demo.mp4', 340_000],
  ]) {
    const base64 = await recorder.evaluate(
      async ({ files, order, fps, mimeType, bitsPerSecond }) => {
        if (!MediaRecorder.isTypeSupported(mimeType)) return null;
        const images = await Promise.all(
          files.map(async (src) => {
            const img = new Image();
            img.src = src;
            await img.decode();
            return img;
          }),
        );
        const canvas = document.getElementById('c');
        const ctx = canvas.getContext('2d');
        const stream = canvas.captureStream(0);
        const [track] = stream.getVideoTracks();
        const rec = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: bitsPerSecond });
        const chunks = [];
        rec.ondataavailable = (event) => chunks.push(event.data);
        const stopped = new Promise((resolve) => (rec.onstop = resolve));
        rec.start();
        const start = performance.now();
        for (let i = 0; i < order.length; i += 1) {
          ctx.drawImage(images[order[i]], 0, 0);
          track.requestFrame();
          const next = start + ((i + 1) * 1000) / fps;
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
        }
        rec.stop();
        await stopped;
        const buffer = await new Blob(chunks, { type: mimeType }).arrayBuffer();
        let binary = '';
        const bytes = new Uint8Array(buffer);
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(binary);
      },
      { files, order, fps, mimeType, bitsPerSecond },
    );
    if (base64) await write(name, Buffer.from(base64, 'base64'));
    else console.log(`${name}: ${mimeType} is not supported by this Chromium, skipped`);
  }
  await recorderContext.close();
  await fs.rm(frameDir, { recursive: true, force: true });

  // Phones get a still picture instead of the video: the same visit on a phone, after the answer.
  // There the window fills the screen, so the visitor asks one more question.
  model.pace = { thinkMs: 100, wordMs: 8 };
  const phone = await browser.newContext({ viewport: { width: 390, height: 720 }, deviceScaleFactor: 2 });
  const phoneTab = await phone.newPage();
  await phoneTab.goto(`${site.origin}/site?bot=${coffeeBot.id}&pointer=0`);
  await phoneTab.locator('botsmith-widget button.l').click();
  const phoneBox = phoneTab.locator('botsmith-widget textarea');
  for (const [phoneQuestion] of coffeeBot.conversation) {
    await phoneBox.fill(phoneQuestion);
    await sendAndWait(phoneTab, phoneTab.keyboard, coffeeBot);
  }
  await settle(phoneTab);
  const phonePng = await phoneTab.screenshot();
  await write('demo-mobile.webp', await toWebpWithin(encoder, phonePng, 630, 0.8, BUDGET_KIB['demo-mobile']));
  await phone.close();
}

// ---------------------------------------------------------------------------------------------

if (!existsSync(appMain)) {
  console.error('The app is not built: run `npm run build` first (this script starts backend/dist/bundle/main.mjs).');
  process.exit(1);
}

const model = await startScriptedModel([...examples, coffeeBot]);
const cleanups = [() => model.close()];
try {
  const app = await startApp({ OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: model.baseUrl });
  cleanups.push(() => app.stop());
  const site = await startSite(app);
  cleanups.push(() => site.close());
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      ...CHROMIUM_FLAGS,
      // Frames are drawn from file:// URLs into a canvas that is then recorded.
      '--allow-file-access-from-files',
    ],
  });
  cleanups.push(() => browser.close());

  await fs.mkdir(outDir, { recursive: true });
  await createBots(browser, app, [...examples, coffeeBot], { demo: await beanIcon(browser) });
  const encoder = await (await browser.newContext()).newPage();
  await captureExamples(browser, encoder, app, model);
  await captureDemo(browser, encoder, app, model, site);
  if (model.unknown.length > 0) throw new Error(`The scripted model was asked unscripted questions: ${model.unknown}`);
  console.log(`${model.answered} answers streamed through the app's OpenAI adapter`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((e) => console.error(e));
}
