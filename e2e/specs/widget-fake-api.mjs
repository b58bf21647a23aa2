/**
 * A fake Botsmith API for widget.spec.ts, run as its own process (forked by widget-fixtures.ts),
 * so its response times are not those of the busy test process that also drives the browser.
 *
 * It speaks the widget's contract: GET /api/widget/bots/:id, POST /api/chat (server-sent events
 * with `Accept: text/event-stream`, JSON otherwise), /widget.js and /widget-assets/* from
 * widget/dist, CORS for any origin without credentials. Each bot exercises one case. Every
 * request is reported to the parent over IPC, and the first message says where it listens.
 *
 *   argv[2]: the widget's dist folder
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { BOT_DEFAULTS, solidGradient, widgetTheme } from '@botsmith/contract';

const DIST = path.resolve(process.argv[2] ?? 'widget/dist');
const FIRST_TOKEN_DELAY_MS = 250;
const TOKEN_DELAY_MS = 25;
export const REFUSAL_TEXT = 'This chatbot is not available on this website.';

/** A new bot's look and greeting: the contract's defaults without the owner-only fields. */
const {
  prompt: _prompt,
  allowedDomain: _allowedDomain,
  model: _model,
  maxTokens: _maxTokens,
  temperature: _temperature,
  usageLimitDollars: _usageLimitDollars,
  ...PUBLIC_DEFAULTS
} = BOT_DEFAULTS;

function bot(id, over) {
  const b = {
    id,
    name: 'Bot',
    model: 'gpt-4o-mini',
    modelLabel: 'GPT-4o Mini',
    hidden: false,
    ...PUBLIC_DEFAULTS,
    ...over,
  };
  b.sendButtonColor1 = b.sendButtonColor;
  // Like the real face: the default placeholder is left to the widget, in the visitor's language.
  if (b.placeholderText == BOT_DEFAULTS.placeholderText) b.placeholderText = '';
  b.theme = widgetTheme(b);
  return b;
}

/** 1, 2 and 5: the three stylings of the screenshots; the others: one error path each. */
const BOTS = {
  1: bot(1, {
    name: 'Acme Support',
    bannerDisclaimer: 'AI answers can be wrong.',
    bubbleColor: 'linear-gradient(to right, #1e88e5, #8e24aa)',
    bannerColor: 'linear-gradient(to right, #1e88e5, #8e24aa)',
    sendButtonColor: solidGradient('#1e88e5'),
    widgetBubbleColor: solidGradient('#1e88e5'),
  }),
  2: bot(2, {
    name: 'Night Owl',
    customGreeting: 'Good evening. Ask me **anything** about your order.',
    bubbleColor: solidGradient('#212121'),
    bubbleTextColor: solidGradient('#ffd54f'),
    bubbleBorderRadius: '16px',
    chatWindowBorderRadius: '4px',
    bannerColor: 'linear-gradient(to bottom, #212121, #424242)',
    bannerTextColor: solidGradient('#ffd54f'),
    placeholderText: 'Ask the owl…',
    placeholderTextColor: solidGradient('#9e9e9e'),
    sendButtonColor: solidGradient('#ffd54f'),
    sendArrowColor: solidGradient('#212121'),
    widgetBubbleColor: solidGradient('#ffd54f'),
    assistantBubbleColor: solidGradient('#424242'),
    assistantBubbleTextColor: solidGradient('#fafafa'),
    widgetBackgroundColor: solidGradient('#303030'),
    animation: 'glow',
    widgetPosition: 'left',
  }),
  3: bot(3, { name: 'Restricted', customGreeting: 'I only work on example.com.' }),
  4: bot(4, { name: 'Over budget', hidden: true }),
  5: bot(5, {
    name: 'Candy Shop',
    customGreeting: 'Sweet! What are you craving?',
    bubbleColor: 'linear-gradient(135deg, #ff8a80, #ea80fc)',
    bubbleBorderRadius: '30%',
    chatWindowBorderRadius: '24px',
    bannerColor: 'linear-gradient(135deg, #ff8a80, #ea80fc)',
    bannerTextColor: solidGradient('#4a148c'),
    sendButtonColor: 'linear-gradient(135deg, #ff8a80, #ea80fc)',
    sendArrowColor: solidGradient('#4a148c'),
    widgetBubbleColor: 'linear-gradient(to left, #f8bbd0, #e1bee7)',
    assistantBubbleColor: solidGradient('#fff3e0'),
    assistantBubbleTextColor: solidGradient('#4e342e'),
    widgetBackgroundColor: 'linear-gradient(to bottom, #fffde7, #fce4ec)',
    animation: 'blowup',
  }),
  6: bot(6, { name: 'Flaky', customGreeting: 'My model is down today.' }),
  8: bot(8, { name: 'Iconic', bubbleIcon: '/uploads/icons/owl.svg', bubbleBorderRadius: '12px' }),
  9: bot(9, {
    name: 'Corner Cafe',
    sendButtonColor: solidGradient('#6d4c41'),
    starterQuestions: ['What are your opening hours?', 'Do you deliver?'],
    leadCapture: { fields: ['name', 'email'], offerWhen: ['request'], thankYouText: '' },
  }),
  // Stored values a client must not trust: the widget falls back to its default colours (docs/product.md#colours).
  7: bot(7, {
    name: 'Broken styling',
    bubbleColor: 'red; background: url(https://evil.example/x)',
    bannerColor: 'not a colour',
    widgetBubbleColor: '',
    assistantBubbleColor: 'rgb(1,2,3)',
    widgetBackgroundColor: 'linear-gradient(to right, #abcd, #12)',
    chatWindowBorderRadius: '10px; color: red',
  }),
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function replyFor(prompt) {
  if (/xss/i.test(prompt)) {
    return 'Careful: <img src=x onerror="window.pwned=1"> and [click me](javascript:window.pwned=2) stay text.';
  }
  return `You said *${prompt.replace(/[*_`[\]]/g, '')}*. Here is **bold**, \`code\` and a [link](https://example.com/docs).\n\n- one\n- two`;
}

function json(res, status, value) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}

async function handle(url, req, res, body) {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('Access-Control-Expose-Headers', 'Retry-After, X-Visitor-Token');
  if (req.method == 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
    res.setHeader(
      'Access-Control-Allow-Headers',
      'Content-Type, Accept, X-Page-Url, X-Visitor-Token, X-Visitor-Identity',
    );
    res.writeHead(204).end();
    return;
  }

  if (url.pathname == '/widget.js' || url.pathname.startsWith('/widget-assets/')) {
    const file = path.join(DIST, path.normalize(url.pathname));
    if (!file.startsWith(DIST + path.sep) || !fs.existsSync(file)) return json(res, 404, { error: 'Not found.' });
    res.writeHead(200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': url.pathname == '/widget.js' ? 'public, max-age=300' : 'public, max-age=31536000, immutable',
    });
    res.end(fs.readFileSync(file));
    return;
  }

  if (url.pathname == '/uploads/icons/owl.svg') {
    res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
    res.end(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 60"><rect width="60" height="60" fill="#5e35b1"/><circle cx="30" cy="30" r="14" fill="#ffd54f"/></svg>',
    );
    return;
  }

  const botMatch = /^\/api\/widget\/bots\/([^/]+)$/.exec(url.pathname);
  if (botMatch && req.method == 'GET') {
    const b = BOTS[decodeURIComponent(botMatch[1])];
    return b
      ? json(res, 200, { bot: b })
      : json(res, 404, { error: 'This chatbot does not exist.', code: 'BOT_NOT_FOUND' });
  }

  if (url.pathname == '/api/chat' && req.method == 'POST') {
    const payload = JSON.parse(body);
    const id = String(payload.botId);
    if (!BOTS[id]) return json(res, 404, { error: 'This chatbot does not exist.', code: 'BOT_NOT_FOUND' });
    if (id == '3') return json(res, 403, { error: REFUSAL_TEXT, code: 'DOMAIN_NOT_ALLOWED' });
    if (id == '6') {
      res.writeHead(502, { 'Content-Type': 'text/html' }).end('<h1>Bad gateway</h1>');
      return;
    }
    const message = replyFor(String(payload.prompt));
    // Like the real server: a visitor without a token is issued one with the answer.
    if (!req.headers['x-visitor-token']) res.setHeader('X-Visitor-Token', `v1.fake-visitor-of-bot-${id}`);
    if (!(req.headers.accept ?? '').includes('text/event-stream')) return json(res, 200, { message });
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' });
    res.flushHeaders();
    await sleep(FIRST_TOKEN_DELAY_MS);
    for (const piece of message.match(/\S+\s*/g) ?? []) {
      res.write(`event: token\ndata: ${JSON.stringify({ text: piece })}\n\n`);
      await sleep(TOKEN_DELAY_MS);
    }
    res.end(`event: done\ndata: ${JSON.stringify({ message, costCents: 4 })}\n\n`);
    return;
  }
  // The visitor's "Delete this conversation": like the real server, only with a visitor token.
  if (url.pathname == '/api/chat/conversations/current' && req.method == 'DELETE') {
    if (!req.headers['x-visitor-token'])
      return json(res, 404, { error: 'Conversation not found.', code: 'CONVERSATION_NOT_FOUND' });
    res.writeHead(204).end();
    return;
  }
  json(res, 404, { error: 'Not found.', code: 'NOT_FOUND' });
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c.toString()));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://x');
    process.send?.({
      type: 'request',
      request: { method: req.method, path: url.pathname, headers: req.headers, body },
    });
    handle(url, req, res, body).catch((e) => {
      res.statusCode = 500;
      res.end(String(e));
    });
  });
});

server.listen(0, '127.0.0.1', () => {
  const origin = `http://127.0.0.1:${server.address().port}`;
  process.send?.({ type: 'ready', origin, refusalText: REFUSAL_TEXT });
});
process.on('disconnect', () => process.exit(0));
