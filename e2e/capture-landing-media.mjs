#!/usr/bin/env node
/* global document, Image, MediaRecorder -- used inside page.evaluate callbacks, which run in Chromium */
/**
 * Regenerates the landing page's pictures and demo video in frontend/public/landing/.
 *
 * They are renderings of HTML mock-ups of a Botsmith chat widget (banner, conversation with
 * bubbles at most 75% wide, input with placeholder, round send button) in five stylings, drawn
 * with the same fields an owner sets in the Styling tab. Headless Chromium takes the pictures and
 * encodes them (WebP through a canvas, the video through MediaRecorder), so no image tool is needed.
 * Once the real widget is complete, this script can point at it instead of the mock-ups.
 *
 *   node e2e/capture-landing-media.mjs            (CHROMIUM_PATH overrides /usr/bin/chromium)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, '../frontend/public/landing');
const FONT = `'Inter', -apple-system, 'Segoe UI', Roboto, sans-serif`;

/** Five example bots; the fields mirror the Bot entity's styling fields. */
const examples = [
  {
    slug: 'ecommerce',
    name: 'Shopwell Assistant',
    disclaimer: 'AI replies can be wrong. Check order details in your account.',
    bannerColor: 'linear-gradient(135deg, #ff7a59, #ff3d77)',
    bannerTextColor: '#ffffff',
    bubbleColor: 'linear-gradient(135deg, #ff7a59, #ff3d77)',
    bubbleTextColor: '#ffffff',
    assistantBubbleColor: '#fff1ec',
    assistantBubbleTextColor: '#3b1d14',
    widgetBackgroundColor: '#ffffff',
    sendButtonColor: '#ff3d77',
    sendArrowColor: '#ffffff',
    placeholderText: 'Ask about sizes, orders, returns...',
    placeholderTextColor: '#b08a80',
    chatWindowBorderRadius: 18,
    avatar: 'bag',
    messages: [
      ['assistant', 'Hi there! Looking for something special today?'],
      ['user', 'Do the Ridge trail runners come in size 11?'],
      [
        'assistant',
        'Yes! Ridge Trail Runners are in stock in size 11 in Slate and Sunset Orange. Shall I add a pair to your cart?',
      ],
      ['user', 'Slate, please.'],
      ['assistant', 'Done: 1 x Ridge Trail Runner (Slate, 11) is in your cart. Shipping is free over $50.'],
    ],
  },
  {
    slug: 'coach',
    name: 'Coach Maya',
    disclaimer: 'General fitness guidance, not medical advice.',
    bannerColor: 'linear-gradient(to right, #6d28d9, #a855f7)',
    bannerTextColor: '#ffffff',
    bubbleColor: 'linear-gradient(to right, #7c3aed, #a855f7)',
    bubbleTextColor: '#ffffff',
    assistantBubbleColor: '#f3efff',
    assistantBubbleTextColor: '#2e1065',
    widgetBackgroundColor: '#fcfbff',
    sendButtonColor: '#7c3aed',
    sendArrowColor: '#ffffff',
    placeholderText: 'Tell Maya about your goals...',
    placeholderTextColor: '#9d8fc4',
    chatWindowBorderRadius: 24,
    avatar: 'spark',
    messages: [
      ['assistant', "Morning! Ready to plan this week's training?"],
      ['user', 'I only have 30 minutes a day. Can I still build strength?'],
      [
        'assistant',
        'Absolutely. Do three full-body sessions a week: squats, push-ups, rows and planks, 3 rounds each. On the other days, a brisk 20-minute walk keeps you moving.',
      ],
      ['user', 'Love it. Remind me on Monday?'],
    ],
  },
  {
    slug: 'tech-blog',
    name: 'DevNotes Bot',
    disclaimer: 'Answers come from articles on this blog.',
    bannerColor: 'linear-gradient(to right, #0f172a, #1e293b)',
    bannerTextColor: '#e2e8f0',
    bubbleColor: 'linear-gradient(to right, #0891b2, #22d3ee)',
    bubbleTextColor: '#04131a',
    assistantBubbleColor: '#1e293b',
    assistantBubbleTextColor: '#e2e8f0',
    widgetBackgroundColor: '#0b1120',
    sendButtonColor: '#22d3ee',
    sendArrowColor: '#04131a',
    placeholderText: 'Ask about any post...',
    placeholderTextColor: '#64748b',
    chatWindowBorderRadius: 10,
    avatar: 'code',
    inputBackground: '#111827',
    messages: [
      ['assistant', 'Hey! Ask me anything about the articles on this blog.'],
      ['user', "What's the difference between useMemo and useCallback?"],
      [
        'assistant',
        'useMemo caches a computed value; useCallback caches a function. Both recompute only when their dependencies change. The post "React hooks in practice" has examples.',
      ],
      ['user', 'Link me that post?'],
    ],
  },
  {
    slug: 'support',
    name: 'Acme Support',
    disclaimer: 'Our AI assistant. A human is one click away.',
    bannerColor: 'linear-gradient(to right, #2ecc71, #2ecc71)',
    bannerTextColor: '#ffffff',
    bubbleColor: 'linear-gradient(to right, #2ecc71, #2ecc71)',
    bubbleTextColor: '#ffffff',
    assistantBubbleColor: '#f1f0f0',
    assistantBubbleTextColor: '#000000',
    widgetBackgroundColor: '#ffffff',
    sendButtonColor: '#2ecc71',
    sendArrowColor: '#ffffff',
    placeholderText: 'Type your message here...',
    placeholderTextColor: '#999999',
    chatWindowBorderRadius: 10,
    avatar: 'headset',
    messages: [
      ['assistant', 'Hello! How can I help you today?'],
      ['user', "I can't log in to my account."],
      [
        'assistant',
        'Sorry about that! Click "Forgot password" on the login page and we will e-mail you a reset link. It stays valid for one hour.',
      ],
      ['user', 'Got it, thanks!'],
      ['assistant', 'Happy to help. Anything else?'],
    ],
  },
  {
    slug: 'hr',
    name: 'PeopleHub HR',
    disclaimer: 'For policy questions. Personal cases go to HR.',
    bannerColor: 'linear-gradient(135deg, #1d4ed8, #3b82f6)',
    bannerTextColor: '#ffffff',
    bubbleColor: 'linear-gradient(135deg, #2563eb, #3b82f6)',
    bubbleTextColor: '#ffffff',
    assistantBubbleColor: '#eef4ff',
    assistantBubbleTextColor: '#172554',
    widgetBackgroundColor: '#ffffff',
    sendButtonColor: '#2563eb',
    sendArrowColor: '#ffffff',
    placeholderText: 'Ask about leave, benefits, payroll...',
    placeholderTextColor: '#8aa0c8',
    chatWindowBorderRadius: 14,
    avatar: 'people',
    messages: [
      ['assistant', 'Hi! I can answer questions about benefits, leave and payroll.'],
      ['user', 'How many vacation days do I get?'],
      [
        'assistant',
        'Full-time employees get 25 days of paid vacation a year, plus public holidays. Request time off in PeopleHub under Leave.',
      ],
      ['user', 'And do unused days carry over?'],
      ['assistant', 'Up to 5 days carry over to the next year.'],
    ],
  },
];

const avatars = {
  bag: '<path d="M7 8V7a5 5 0 0 1 10 0v1h2l1 12H4L5 8h2zm2 0h6V7a3 3 0 0 0-6 0v1z" fill="currentColor"/>',
  spark: '<path d="M12 2l2.4 6.6L21 11l-6.6 2.4L12 20l-2.4-6.6L3 11l6.6-2.4z" fill="currentColor"/>',
  code: '<path d="M8.5 7L3.5 12l5 5M15.5 7l5 5-5 5" stroke="currentColor" stroke-width="2.2" fill="none" stroke-linecap="round" stroke-linejoin="round"/>',
  headset:
    '<path d="M4 13v-1a8 8 0 0 1 16 0v1M4 13h3v6H5a1 1 0 0 1-1-1zm16 0h-3v6h2a1 1 0 0 0 1-1z" stroke="currentColor" stroke-width="2" fill="none" stroke-linejoin="round"/>',
  people:
    '<circle cx="9" cy="8" r="3.2" fill="currentColor"/><circle cx="17" cy="9" r="2.4" fill="currentColor" opacity=".8"/><path d="M3 19c0-3.3 2.7-5.5 6-5.5s6 2.2 6 5.5zM15 19c.1-2-.6-3.6-1.6-4.6 3.3-.6 6.6.9 6.6 4.6z" fill="currentColor"/>',
  bean: '<ellipse cx="12" cy="12" rx="6" ry="8.5" transform="rotate(35 12 12)" fill="currentColor"/><path d="M8.5 17c3-2 4-7 7-10" stroke="#fff" stroke-width="1.6" fill="none" opacity=".7"/>',
};

const escapeHtml = (text) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

const widgetCss = `
  .bw-window { width: 350px; height: 500px; display: flex; flex-direction: column; overflow: hidden; font-family: ${FONT}; }
  .bw-banner { display: flex; align-items: center; gap: 10px; padding: 14px 16px; }
  .bw-avatar { width: 38px; height: 38px; border-radius: 50%; display: grid; place-items: center; background: rgba(255,255,255,.22); flex-shrink: 0; }
  .bw-avatar svg { width: 20px; height: 20px; }
  .bw-name { font-weight: 700; font-size: 15px; line-height: 1.2; }
  .bw-status { font-size: 11px; opacity: .85; margin-top: 2px; display: flex; align-items: center; gap: 5px; }
  .bw-status::before { content: ''; width: 7px; height: 7px; border-radius: 50%; background: #4ade80; box-shadow: 0 0 0 2px rgba(255,255,255,.35); }
  .bw-close { margin-left: auto; opacity: .8; font-size: 20px; line-height: 1; }
  .bw-disclaimer { font-size: 10.5px; padding: 6px 16px; opacity: .9; }
  .bw-conv { flex: 1; padding: 12px 14px; display: flex; flex-direction: column; justify-content: flex-end; gap: 8px; overflow: hidden; }
  .bw-msg { max-width: 75%; padding: 9px 12px; border-radius: 16px; font-size: 13.5px; line-height: 1.45; white-space: pre-wrap; }
  .bw-user { align-self: flex-end; border-bottom-right-radius: 5px; }
  .bw-assistant { align-self: flex-start; border-bottom-left-radius: 5px; }
  .bw-dots { display: inline-flex; gap: 4px; padding: 12px 14px; }
  .bw-dots i { width: 7px; height: 7px; border-radius: 50%; background: currentColor; opacity: .35; }
  .bw-input { display: flex; align-items: center; gap: 8px; padding: 10px 12px 12px; }
  .bw-field { flex: 1; border-radius: 999px; padding: 10px 14px; font-size: 13.5px; white-space: nowrap; overflow: hidden; }
  .bw-send { width: 40px; height: 40px; border-radius: 50%; display: grid; place-items: center; flex-shrink: 0; transition: box-shadow .2s; }
  .bw-send svg { width: 18px; height: 18px; }
`;

/** The chat window of one bot, in a given state of its conversation. */
function widgetHtml(bot, { messages = bot.messages, typingDots = -1, input = '', glow = false } = {}) {
  const dark = bot.widgetBackgroundColor.toLowerCase() < '#333333';
  const border = dark ? 'rgba(255,255,255,.08)' : 'rgba(0,0,0,.07)';
  const fieldBg = bot.inputBackground ?? (dark ? '#111827' : '#f4f5f7');
  const bubbles = messages
    .map(([role, text]) => {
      const style =
        role === 'user'
          ? `background:${bot.bubbleColor};color:${bot.bubbleTextColor}`
          : `background:${bot.assistantBubbleColor};color:${bot.assistantBubbleTextColor}`;
      return `<div class="bw-msg bw-${role}" style="${style}">${escapeHtml(text)}</div>`;
    })
    .join('');
  const dots =
    typingDots >= 0
      ? `<div class="bw-msg bw-assistant bw-dots" style="background:${bot.assistantBubbleColor};color:${bot.assistantBubbleTextColor}">${[
          0, 1, 2,
        ]
          .map((i) => `<i style="opacity:${i === typingDots % 3 ? 0.9 : 0.3}"></i>`)
          .join('')}</div>`
      : '';
  const field = input
    ? `<span style="color:${dark ? '#e2e8f0' : '#111827'}">${escapeHtml(input)}<span style="opacity:.6">|</span></span>`
    : `<span style="color:${bot.placeholderTextColor}">${escapeHtml(bot.placeholderText)}</span>`;
  return `
  <div class="bw-window" style="background:${bot.widgetBackgroundColor};border-radius:${bot.chatWindowBorderRadius}px">
    <div class="bw-banner" style="background:${bot.bannerColor};color:${bot.bannerTextColor}">
      <div class="bw-avatar"><svg viewBox="0 0 24 24">${avatars[bot.avatar]}</svg></div>
      <div><div class="bw-name">${escapeHtml(bot.name)}</div><div class="bw-status">Online</div></div>
      <div class="bw-close">&times;</div>
    </div>
    <div class="bw-disclaimer" style="color:${dark ? '#94a3b8' : '#6b7280'};border-bottom:1px solid ${border}">${escapeHtml(bot.disclaimer)}</div>
    <div class="bw-conv">${bubbles}${dots}</div>
    <div class="bw-input" style="border-top:1px solid ${border}">
      <div class="bw-field" style="background:${fieldBg}">${field}</div>
      <div class="bw-send" style="background:${bot.sendButtonColor};color:${bot.sendArrowColor};${glow ? `box-shadow:0 0 0 6px ${bot.sendButtonColor}44, 0 0 18px ${bot.sendButtonColor}` : ''}">
        <svg viewBox="0 0 24 24"><path d="M4 12l16-8-6 16-2.5-6.5z" fill="currentColor"/></svg>
      </div>
    </div>
  </div>`;
}

function page(body, extraCss = '') {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    * { box-sizing: border-box; margin: 0; }
    body { font-family: ${FONT}; -webkit-font-smoothing: antialiased; }
    ${widgetCss}
    ${extraCss}
  </style></head><body>${body}</body></html>`;
}

/** Re-encodes a PNG as WebP at the given width (height keeps the ratio), inside Chromium. */
async function toWebp(encoder, png, width, quality = 0.82) {
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

async function write(name, data) {
  await fs.writeFile(path.join(outDir, name), data);
  console.log(`${name.padEnd(28)} ${(data.length / 1024).toFixed(1).padStart(7)} KiB`);
}

/** The five example cards: two thumbnail sizes for the fan and a larger picture for the viewer. */
async function captureExamples(browser, encoder) {
  const context = await browser.newContext({ viewport: { width: 420, height: 560 }, deviceScaleFactor: 2 });
  const tab = await context.newPage();
  for (const bot of examples) {
    await tab.setContent(page(`<div style="padding:0">${widgetHtml(bot)}</div>`, 'body{background:transparent}'));
    await tab.evaluate(() => document.fonts.ready);
    const png = await tab.locator('.bw-window').screenshot({ omitBackground: true });
    await write(`${bot.slug}-card-sm.webp`, (await toWebp(encoder, png, 256, 0.8)).data);
    await write(`${bot.slug}-card.webp`, (await toWebp(encoder, png, 440, 0.8)).data);
    await write(`${bot.slug}-full.webp`, (await toWebp(encoder, png, 700, 0.85)).data);
  }
  await context.close();
}

const coffeeBot = {
  slug: 'demo',
  name: 'Bean, Lumen Coffee',
  disclaimer: 'AI assistant. Answers may be imperfect.',
  bannerColor: 'linear-gradient(135deg, #7c4a2d, #b7791f)',
  bannerTextColor: '#ffffff',
  bubbleColor: 'linear-gradient(135deg, #8b5a2b, #b7791f)',
  bubbleTextColor: '#ffffff',
  assistantBubbleColor: '#f6efe7',
  assistantBubbleTextColor: '#3b2416',
  widgetBackgroundColor: '#ffffff',
  sendButtonColor: '#8b5a2b',
  sendArrowColor: '#ffffff',
  placeholderText: 'Type your message here...',
  placeholderTextColor: '#a08a7a',
  chatWindowBorderRadius: 16,
  widgetBubbleColor: '#8b5a2b',
  avatar: 'bean',
};

const greeting = ['assistant', "Hi! I'm Bean, Lumen's coffee helper. Ask me about orders, brewing or our beans."];
const question = 'Which beans are best for espresso?';
const answer =
  'Try our Dark Forest blend: chocolate and toasted-hazelnut notes, roasted medium-dark. Grind fine and pull 18 g in, 36 g out in about 28 seconds.';

/** The customer's website the demo bot sits on, at time t (seconds) of the demo. */
function demoScene(t, { phone = false } = {}) {
  const open = t >= 1.2;
  const openProgress = Math.min(1, Math.max(0, (t - 1.2) / 0.4));
  const typed = question.slice(0, Math.max(0, Math.floor(((t - 2.4) / 2.0) * question.length)));
  const sent = t >= 4.8;
  const messages = [greeting];
  if (sent) messages.push(['user', question]);
  const words = answer.split(' ');
  const shownWords = Math.floor(Math.max(0, (t - 6.2) / 2.2) * words.length);
  if (shownWords > 0) messages.push(['assistant', words.slice(0, shownWords).join(' ')]);
  const typingDots = sent && shownWords === 0 ? Math.floor(t * 4) : -1;
  const glow = sent && t < 5.2;
  const widget = widgetHtml(coffeeBot, { messages, typingDots, input: sent ? '' : typed, glow });
  const scale = phone ? 1 : 0.88;
  return `
  <div class="site">
    <div class="chrome"><i></i><i></i><i></i><div class="url">lumencoffee.com</div></div>
    <div class="nav"><b>Lumen Coffee Co.</b><span>Shop</span><span>Subscriptions</span><span>Brew guides</span><span>Cart (0)</span></div>
    <div class="hero">
      <div class="copy"><h1>Small-batch coffee, roasted every Monday.</h1><p>Single origins and house blends, shipped within 48 hours of roasting.</p><div class="cta">Shop beans</div></div>
      <div class="bag"></div>
    </div>
    <div class="products">${['#5b3a29', '#8b5a2b', '#c08a4f', '#3f2a1f']
      .map(
        (c, i) =>
          `<div class="card"><div class="pic" style="background:${c}"></div><div class="line" style="width:${70 - i * 8}%"></div><div class="line short"></div></div>`,
      )
      .join('')}</div>
    <div class="bw-holder" style="opacity:${open ? openProgress : 0};transform:translateY(${(1 - openProgress) * 24}px) scale(${scale * (0.92 + 0.08 * openProgress)})">${widget}</div>
    <div class="launcher" style="background:${coffeeBot.widgetBubbleColor};transform:scale(${open ? 0.9 : 1 + 0.06 * Math.sin(t * 6)})">
      <svg viewBox="0 0 24 24">${open ? '<path d="M6 6l12 12M18 6L6 18" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/>' : '<path d="M4 5h16v11H9l-5 4z" fill="#fff"/>'}</svg>
    </div>
  </div>`;
}

const sceneCss = (phone) => `
  body { background: #fff; }
  .site { position: relative; width: 100vw; height: 100vh; overflow: hidden; background: #fbf7f2; color: #2b1a10; }
  .chrome { display: ${phone ? 'none' : 'flex'}; align-items: center; gap: 7px; height: 34px; padding: 0 14px; background: #ece7e1; }
  .chrome i { width: 11px; height: 11px; border-radius: 50%; background: #d3c8bd; }
  .chrome .url { margin-left: 18px; background: #fff; border-radius: 6px; padding: 3px 14px; font-size: 12px; color: #6b5b4f; width: 40%; }
  .nav { display: flex; gap: 22px; align-items: center; padding: ${phone ? '14px 18px' : '16px 40px'}; font-size: 14px; border-bottom: 1px solid #eadfd3; }
  .nav b { font-size: 17px; margin-right: auto; }
  .nav span { color: #6b5443; display: ${phone ? 'none' : 'inline'}; }
  .hero { display: flex; gap: 30px; align-items: center; padding: ${phone ? '26px 18px' : '40px 40px 26px'}; }
  .hero h1 { font-size: ${phone ? 26 : 36}px; line-height: 1.1; letter-spacing: -.02em; max-width: 440px; }
  .hero p { margin: 12px 0 18px; color: #6b5443; max-width: 400px; font-size: 15px; display: ${phone ? 'none' : 'block'}; }
  .cta { display: ${phone ? 'none' : 'inline-block'}; background: #2b1a10; color: #fff; border-radius: 999px; padding: 10px 20px; font-weight: 600; font-size: 14px; }
  .bag { display: ${phone ? 'none' : 'block'}; width: 200px; height: 200px; border-radius: 28px; background: linear-gradient(160deg, #c08a4f, #5b3a29); transform: rotate(-6deg); }
  .products { display: grid; grid-template-columns: repeat(${phone ? 2 : 4}, 1fr); gap: 16px; padding: 0 ${phone ? 18 : 40}px; }
  .card { background: #fff; border-radius: 14px; padding: 10px; border: 1px solid #eadfd3; }
  .pic { height: ${phone ? 90 : 110}px; border-radius: 10px; opacity: .9; }
  .line { height: 9px; background: #e6dbcf; border-radius: 5px; margin-top: 10px; }
  .line.short { width: 35%; }
  .bw-holder { position: absolute; right: ${phone ? 20 : 26}px; bottom: ${phone ? 88 : 92}px; transform-origin: bottom right; box-shadow: 0 24px 60px -12px rgba(43,26,16,.35); border-radius: 16px; }
  .launcher { position: absolute; right: ${phone ? 20 : 26}px; bottom: ${phone ? 18 : 22}px; width: 58px; height: 58px; border-radius: 50%; display: grid; place-items: center; box-shadow: 0 10px 24px -6px rgba(0,0,0,.35); }
  .launcher svg { width: 26px; height: 26px; }
`;

/** The #info demo: a visitor opens the bot on a customer's site, asks, and gets an answer. */
async function captureDemo(browser, encoder) {
  const fps = 15;
  const seconds = 12;
  const width = 960;
  const height = 600;
  const frameDir = await fs.mkdtemp(path.join(os.tmpdir(), 'botsmith-demo-'));
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  const tab = await context.newPage();
  await tab.setContent(page('<div id="scene"></div>', sceneCss(false)));
  await tab.evaluate(() => document.fonts.ready);
  const frames = [];
  for (let i = 0; i < fps * seconds; i += 1) {
    await tab.evaluate((html) => (document.getElementById('scene').innerHTML = html), demoScene(i / fps));
    const file = `frame-${String(i).padStart(4, '0')}.png`;
    await fs.writeFile(path.join(frameDir, file), await tab.screenshot());
    frames.push(file);
  }
  // The last frame, fully answered, is the video's poster.
  await write('demo-poster.webp', (await toWebp(encoder, await tab.screenshot(), width, 0.8)).data);
  await context.close();

  // Assemble the frames into a video with MediaRecorder, one requested frame per tick.
  await fs.writeFile(
    path.join(frameDir, 'recorder.html'),
    `<!doctype html><canvas id="c" width="${width}" height="${height}"></canvas>`,
  );
  const recorderContext = await browser.newContext();
  const recorder = await recorderContext.newPage();
  await recorder.goto(`file://${path.join(frameDir, 'recorder.html')}`);
  for (const [mimeType, name] of [
    ['video/webm;codecs=vp9', 'demo.webm'],
    ['video/mp4;codecs=avc1', 'demo.mp4'],
  ]) {
    const base64 = await recorder.evaluate(
      async ({ frames, fps, mimeType }) => {
        if (!MediaRecorder.isTypeSupported(mimeType)) return null;
        const images = await Promise.all(
          frames.map(async (src) => {
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
        const rec = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: 350_000 });
        const chunks = [];
        rec.ondataavailable = (event) => chunks.push(event.data);
        const stopped = new Promise((resolve) => (rec.onstop = resolve));
        rec.start();
        const start = performance.now();
        for (let i = 0; i < images.length; i += 1) {
          ctx.drawImage(images[i], 0, 0);
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
      { frames, fps, mimeType },
    );
    if (base64) await write(name, Buffer.from(base64, 'base64'));
    else console.log(`${name}: ${mimeType} is not supported by this Chromium, skipped`);
  }
  await recorderContext.close();
  await fs.rm(frameDir, { recursive: true, force: true });

  // Phones get a still picture instead of the video.
  const phone = await browser.newContext({ viewport: { width: 390, height: 720 }, deviceScaleFactor: 2 });
  const phoneTab = await phone.newPage();
  await phoneTab.setContent(page(`<div id="scene">${demoScene(seconds, { phone: true })}</div>`, sceneCss(true)));
  await phoneTab.evaluate(() => document.fonts.ready);
  await write('demo-mobile.webp', (await toWebp(encoder, await phoneTab.screenshot(), 630, 0.8)).data);
  await phone.close();
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    // Frames are drawn from file:// URLs into a canvas that is then recorded.
    '--allow-file-access-from-files',
  ],
});
try {
  await fs.mkdir(outDir, { recursive: true });
  const encoder = await (await browser.newContext()).newPage();
  await captureExamples(browser, encoder);
  await captureDemo(browser, encoder);
} finally {
  await browser.close();
}
