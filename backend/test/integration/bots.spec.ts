import type request from 'supertest';
import { BOT_DEFAULTS } from '../../src/common/constants.js';
import { BotsService } from '../../src/modules/bots/bots.service.js';
import {
  createBotViaApi,
  createCategoryViaApi,
  itAppliesTheNameRule,
  OWNER_BOT_KEYS,
} from '../support/bot-factories.js';
import { createUser, signedInAgent, startAppWithTwoOwners } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

const GRADIENT_FIELDS = [
  'bubbleColor',
  'bubbleTextColor',
  'bannerColor',
  'sendButtonColor',
  'sendArrowColor',
  'bannerTextColor',
  'placeholderTextColor',
  'widgetBubbleColor',
  'assistantBubbleColor',
  'assistantBubbleTextColor',
  'widgetBackgroundColor',
] as const;

/**
 * The validation table of PUT /api/bots/:id: for each field, values that must be saved (with
 * what is stored) and values that must be refused with 400 naming the field.
 */
const VALIDATION_TABLE: { field: string; accepted: [unknown, unknown][]; refused: unknown[] }[] = [
  {
    field: 'name',
    accepted: [
      ['  Helpdesk  ', 'Helpdesk'],
      ['x'.repeat(100), 'x'.repeat(100)],
    ],
    refused: ['', '   ', null, 42, 'x'.repeat(101)],
  },
  {
    field: 'customGreeting',
    accepted: [
      ['Hello there!', 'Hello there!'],
      ['', ''],
      ['g'.repeat(1000), 'g'.repeat(1000)],
    ],
    refused: [null, 7, 'g'.repeat(1001)],
  },
  {
    field: 'widgetLanguage',
    accepted: [
      ['de', 'de'],
      ['ja', 'ja'],
      ['auto', 'auto'],
    ],
    refused: [null, '', 'DE', 'de-DE', 'ar', 'auto ', 7, ['de']],
  },
  {
    field: 'starterQuestions',
    accepted: [
      [
        ['  What are your opening hours?  ', 'Do you deliver?'],
        ['What are your opening hours?', 'Do you deliver?'],
      ],
      [
        ['a', 'b', 'c', 'q'.repeat(80)],
        ['a', 'b', 'c', 'q'.repeat(80)],
      ],
      [[], []],
    ],
    refused: [
      null,
      'Do you deliver?',
      { 0: 'Do you deliver?' },
      ['a', 'b', 'c', 'd', 'e'],
      ['q'.repeat(81)],
      ['Fine', '   '],
      ['Do you deliver?', 'do you DELIVER?'],
      ['Fine', 7],
      [['nested']],
    ],
  },
  {
    field: 'model',
    accepted: [
      ['gpt-3.5-turbo', 'gpt-3.5-turbo'],
      ['gpt-4-turbo', 'gpt-4-turbo'],
      ['gpt-4o', 'gpt-4o'],
      ['gpt-4o-mini', 'gpt-4o-mini'],
    ],
    refused: ['gpt-5', 'GPT-4O', '', null],
  },
  {
    field: 'allowedDomain',
    accepted: [
      ['Example.COM', 'example.com'],
      ['shop.example.co.uk', 'shop.example.co.uk'],
      ['', ''],
      ['localhost', 'localhost'],
    ],
    refused: ['https://example.com', 'example.com/path', 'example.com:8080', '*.example.com', '10.0.0.1', null, 5],
  },
  ...GRADIENT_FIELDS.map((field) => ({
    field,
    accepted: [
      ['linear-gradient(to right, #2ecc71, #27ae60)', 'linear-gradient(to right, #2ecc71, #27ae60)'],
      ['linear-gradient(135deg,#FFF,#000)', 'linear-gradient(135deg, #fff, #000)'],
      ['linear-gradient(to top, #abc, #abcdef)', 'linear-gradient(to top, #abc, #abcdef)'],
    ] as [unknown, unknown][],
    refused: [
      '#2ecc71',
      'red',
      'linear-gradient(45deg, #fff, #000)',
      'linear-gradient(to right, #ffff, #000)',
      'linear-gradient(to right, #fff, #000, #111)',
      'linear-gradient(to right, #fff, #000); background: url(//evil)',
      '',
      null,
    ] as unknown[],
  })),
  {
    field: 'bubbleBorderRadius',
    accepted: [
      ['50%', '50%'],
      ['12px', '12px'],
      ['0', '0'],
    ],
    refused: ['12', '12em', '-3px', '1000px', '101%', '', null],
  },
  {
    field: 'chatWindowBorderRadius',
    accepted: [
      ['10px', '10px'],
      ['0', '0'],
    ],
    refused: ['calc(10px)', '10 px', null],
  },
  {
    field: 'bannerDisclaimer',
    accepted: [
      ['Answers may be wrong.', 'Answers may be wrong.'],
      ['', ''],
      ['d'.repeat(300), 'd'.repeat(300)],
    ],
    refused: ['d'.repeat(301), null],
  },
  {
    field: 'placeholderText',
    accepted: [
      ['Ask me anything', 'Ask me anything'],
      ['p'.repeat(120), 'p'.repeat(120)],
    ],
    refused: ['p'.repeat(121), null, 1],
  },
  {
    field: 'animation',
    accepted: [
      ['none', 'none'],
      ['blowup', 'blowup'],
      ['glow', 'glow'],
      ['slide', 'slide'],
      ['rotate', 'rotate'],
      ['shake', 'shake'],
      ['drop', 'drop'],
      ['roll', 'roll'],
    ],
    refused: ['bounce', 'Expand', '', null],
  },
  {
    field: 'widgetPosition',
    accepted: [
      ['left', 'left'],
      ['right', 'right'],
    ],
    refused: ['center', 'Left', null],
  },
  {
    field: 'prompt',
    accepted: [
      ['You are a helpful assistant.', 'You are a helpful assistant.'],
      ['', ''],
      ['p'.repeat(20_000), 'p'.repeat(20_000)],
    ],
    refused: ['p'.repeat(20_001), null, []],
  },
  {
    field: 'maxTokens',
    accepted: [
      [1, 1],
      [2000, 2000],
      [300, 300],
    ],
    refused: [0, 2001, 1.5, '300', null, -1],
  },
  {
    field: 'temperature',
    accepted: [
      [0, 0],
      [2, 2],
      [0.7, 0.7],
    ],
    refused: [-0.1, 2.1, '0.5', null, 0.123],
  },
  {
    field: 'usageLimitDollars',
    accepted: [
      [25, 25],
      [0, 0],
      ['', 0],
      [null, 0],
      ['40', 40],
    ],
    refused: [-1, 2.5, 'abc', '1.5', 1_000_001],
  },
];

describe('bots API', () => {
  let t: TestApp;
  let owner: request.Agent;
  let other: request.Agent;

  beforeAll(async () => {
    ({ t, owner, other } = await startAppWithTwoOwners());
  });
  afterAll(async () => {
    await t.close();
  });

  async function getBot(id: number) {
    const response = await owner.get(`/api/bots/${id}`).expect(200);
    return response.body.bot as Record<string, unknown>;
  }

  describe('access', () => {
    it('answers 401 on every route without a session', async () => {
      const http = t.http();
      for (const [method, path] of [
        ['get', '/api/bots'],
        ['post', '/api/bots'],
        ['get', '/api/bots/1'],
        ['put', '/api/bots/1'],
        ['delete', '/api/bots/1'],
        ['post', '/api/bots/1/api-key'],
      ] as const) {
        const response = await http[method](path).set('Origin', t.origin).send({});
        expect({ path, status: response.status, body: response.body }).toEqual({
          path,
          status: 401,
          body: { error: 'Please sign in.', code: 'UNAUTHORIZED' },
        });
      }
    });

    it.each([
      ['none', 'SETUP_REQUIRED'],
      ['customer', 'SUBSCRIPTION_PENDING'],
      ['failed', 'PAYMENT_FAILED'],
    ] as const)('answers 403 %s to an owner whose billing is %s, and creates nothing', async (billing, code) => {
      const { agent, user } = await signedInAgent(t, { billing });
      const list = await agent.get('/api/bots').expect(403);
      expect(list.body.code).toBe(code);
      const create = await agent.post('/api/bots').set('Origin', t.origin).send({ botName: 'Blocked' }).expect(403);
      expect(create.body.code).toBe(code);
      const [{ count }] = await t.dataSource.query('SELECT count(*)::int AS count FROM bots WHERE owner_id = $1', [
        user.id,
      ]);
      expect(count).toBe(0);
    });
  });

  describe('POST /api/bots', () => {
    it('creates a bot with the trimmed name and answers 201 {bot:{id,name}} only', async () => {
      const response = await owner.post('/api/bots').set('Origin', t.origin).send({ botName: '  Support Bot  ' });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ bot: { id: expect.any(Number), name: 'Support Bot' } });
    });

    it('gives a new bot every default and a random 32-byte api key', async () => {
      const first = await getBot(await createBotViaApi(t, owner, 'Defaults'));
      const second = await getBot(await createBotViaApi(t, owner, 'Defaults 2'));
      expect(Object.keys(first).sort()).toEqual(OWNER_BOT_KEYS);
      const { animation, widgetPosition, ...defaults } = BOT_DEFAULTS;
      expect(first).toMatchObject({ ...defaults, animation, widgetPosition, categoryId: null, document: null });
      expect(first).toMatchObject({
        placeholderText: 'Type your message here...',
        bubbleColor: 'linear-gradient(to right, #2ecc71, #2ecc71)',
        bannerColor: 'linear-gradient(to right, #2ecc71, #2ecc71)',
        sendButtonColor: 'linear-gradient(to right, #2ecc71, #2ecc71)',
        sendButtonColor1: 'linear-gradient(to right, #2ecc71, #2ecc71)',
        assistantBubbleColor: 'linear-gradient(to right, #f1f0f0, #f1f0f0)',
        widgetBackgroundColor: 'linear-gradient(to right, #ffffff, #ffffff)',
        widgetBubbleColor: 'linear-gradient(to right, #ff9800, #ff9800)',
        bubbleBorderRadius: '50%',
        chatWindowBorderRadius: '10px',
        widgetPosition: 'right',
        animation: 'none',
        maxTokens: 300,
        temperature: 0.3,
        // Not "no limit": a script can call any public bot, so a new one starts with a budget.
        usageLimitDollars: 10,
        starterQuestions: [],
        widgetLanguage: 'auto',
      });
      expect(first.apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(second.apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(second.apiKey).not.toBe(first.apiKey);
    });

    itAppliesTheNameRule(() => ({ t, owner }), { path: '/api/bots', field: 'botName', noun: 'Bot', max: 100 });

    it('refuses fields other than botName (no choosing the api key or the owner)', async () => {
      const response = await owner
        .post('/api/bots')
        .set('Origin', t.origin)
        .send({ botName: 'Sneaky', apiKey: 'mine', ownerId: 1 });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.error).toMatch(/apiKey|ownerId/);
    });
  });

  describe('GET /api/bots', () => {
    it("lists only the caller's bots, oldest first, with every field", async () => {
      const { agent } = await signedInAgent(t);
      const a = await createBotViaApi(t, agent, 'A');
      const b = await createBotViaApi(t, agent, 'B');
      await createBotViaApi(t, other, 'Not yours');
      const response = await agent.get('/api/bots').expect(200);
      expect(response.body.bots.map((bot: { id: number }) => bot.id)).toEqual([a, b]);
      expect(Object.keys(response.body.bots[0]).sort()).toEqual(OWNER_BOT_KEYS);
    });

    it('answers an empty list to a new owner', async () => {
      const { agent } = await signedInAgent(t);
      const response = await agent.get('/api/bots').expect(200);
      expect(response.body).toEqual({ bots: [] });
    });
  });

  describe('GET /api/bots/:id', () => {
    it("answers 404 for another owner's bot and for a bot that does not exist, without telling them apart", async () => {
      const theirs = await createBotViaApi(t, other, 'Theirs');
      const foreign = await owner.get(`/api/bots/${theirs}`);
      const missing = await owner.get('/api/bots/2147483647');
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(foreign.body);
      expect(JSON.stringify(foreign.body)).not.toContain('apiKey');
    });

    it.each(['abc', '1.5', '-1', '0', '1e3', '99999999999', '01'])(
      'answers 400 INVALID_ID for the id %j',
      async (id) => {
        const response = await owner.get(`/api/bots/${id}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          error: 'The id in the address must be a whole number.',
          code: 'INVALID_ID',
        });
      },
    );
  });

  describe('PUT /api/bots/:id validation table', () => {
    let botId: number;
    beforeAll(async () => {
      botId = await createBotViaApi(t, owner, 'Validation');
    });

    for (const { field, accepted, refused } of VALIDATION_TABLE) {
      for (const [value, stored] of accepted) {
        it(`saves ${field} = ${JSON.stringify(value).slice(0, 60)} as ${JSON.stringify(stored).slice(0, 60)}`, async () => {
          const response = await owner
            .put(`/api/bots/${botId}`)
            .set('Origin', t.origin)
            .send({ [field]: value });
          expect(response.status).toBe(200);
          expect(response.body.bot[field]).toEqual(stored);
          expect((await getBot(botId))[field]).toEqual(stored);
        });
      }
      for (const value of refused) {
        it(`refuses ${field} = ${JSON.stringify(value).slice(0, 60)} with 400 naming the field and saves nothing`, async () => {
          const before = await getBot(botId);
          // A valid change rides along: it must not be saved either.
          const companion = field === 'customGreeting' ? { prompt: 'half-saved?' } : { customGreeting: 'half-saved?' };
          const response = await owner
            .put(`/api/bots/${botId}`)
            .set('Origin', t.origin)
            .send({ ...companion, [field]: value });
          expect(response.status).toBe(400);
          expect(response.body.code).toBe('VALIDATION_FAILED');
          expect(response.body.error).toMatch(field === 'name' ? /Bot name/ : new RegExp(field));
          expect(await getBot(botId)).toEqual(before);
        });
      }
    }
  });

  describe('PUT /api/bots/:id', () => {
    it('saves a whole tab in one request and echoes the bot; sendButtonColor1 follows sendButtonColor', async () => {
      const id = await createBotViaApi(t, owner, 'Tabs');
      const styling = {
        bubbleColor: 'linear-gradient(to right, #111111, #222222)',
        bubbleTextColor: 'linear-gradient(to right, #fff, #fff)',
        bubbleIcon: '',
        bubbleBorderRadius: '40%',
        chatWindowBorderRadius: '16px',
        bannerColor: 'linear-gradient(to bottom, #333333, #444444)',
        sendButtonColor: 'linear-gradient(135deg, #555555, #666666)',
        sendArrowColor: 'linear-gradient(to left, #777, #888)',
        bannerTextColor: 'linear-gradient(to top, #999, #aaa)',
        bannerDisclaimer: 'AI answers can be wrong.',
        placeholderText: 'Ask away',
        placeholderTextColor: 'linear-gradient(to right, #bbb, #bbb)',
        widgetBubbleColor: 'linear-gradient(to right, #ccc, #ccc)',
        assistantBubbleColor: 'linear-gradient(to right, #ddd, #ddd)',
        assistantBubbleTextColor: 'linear-gradient(to right, #eee, #eee)',
        widgetBackgroundColor: 'linear-gradient(to right, #fafafa, #fafafa)',
        animation: 'glow',
        widgetPosition: 'left',
      };
      const response = await owner.put(`/api/bots/${id}`).set('Origin', t.origin).send(styling).expect(200);
      expect(response.body.bot).toMatchObject({ ...styling, sendButtonColor1: styling.sendButtonColor });
      expect(await getBot(id)).toMatchObject(styling);

      const details = {
        name: 'Renamed',
        customGreeting: 'Hi!',
        model: 'gpt-4o',
        categoryId: null,
        allowedDomain: 'shop.io',
      };
      expect(
        (await owner.put(`/api/bots/${id}`).set('Origin', t.origin).send(details).expect(200)).body.bot,
      ).toMatchObject(details);
      const prompting = { prompt: 'Be brief.', maxTokens: 500, temperature: 1.2 };
      expect(
        (await owner.put(`/api/bots/${id}`).set('Origin', t.origin).send(prompting).expect(200)).body.bot,
      ).toMatchObject(prompting);
      // Other tabs' fields were left alone.
      expect(await getBot(id)).toMatchObject({ ...styling, ...details, ...prompting });
    });

    it('accepts an empty body and changes nothing', async () => {
      const id = await createBotViaApi(t, owner, 'Untouched');
      const before = await getBot(id);
      const response = await owner.put(`/api/bots/${id}`).set('Origin', t.origin).send({}).expect(200);
      expect(response.body.bot).toEqual(before);
    });

    it('refuses fields that are not editable (apiKey, id, document, sendButtonColor1)', async () => {
      const id = await createBotViaApi(t, owner, 'Locked');
      const before = await getBot(id);
      for (const field of ['apiKey', 'id', 'document', 'sendButtonColor1', 'ownerId']) {
        const response = await owner
          .put(`/api/bots/${id}`)
          .set('Origin', t.origin)
          .send({ [field]: 'x' });
        expect(response.status).toBe(400);
        expect(response.body.error).toContain(field);
      }
      expect(await getBot(id)).toEqual(before);
    });

    it("puts a bot in one of the owner's categories and takes it out with null", async () => {
      const id = await createBotViaApi(t, owner, 'Categorised');
      const category = await createCategoryViaApi(t, owner, 'Support team');
      await owner.put(`/api/bots/${id}`).set('Origin', t.origin).send({ categoryId: category }).expect(200);
      expect((await getBot(id)).categoryId).toBe(category);
      await owner.put(`/api/bots/${id}`).set('Origin', t.origin).send({ categoryId: null }).expect(200);
      expect((await getBot(id)).categoryId).toBeNull();
    });

    it("answers 404 for another owner's category (or none at all) and saves nothing", async () => {
      const id = await createBotViaApi(t, owner, 'Cross category');
      const theirs = await createCategoryViaApi(t, other, 'Their category');
      const before = await getBot(id);
      for (const categoryId of [theirs, 2_000_000_000]) {
        const response = await owner
          .put(`/api/bots/${id}`)
          .set('Origin', t.origin)
          .send({ name: 'Should not stick', categoryId });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: 'Category not found.', code: 'CATEGORY_NOT_FOUND' });
      }
      expect(await getBot(id)).toEqual(before);
    });

    it.each([0, -4, 1.5, '3'])('refuses categoryId %j with 400', async (categoryId) => {
      const id = await createBotViaApi(t, owner, 'Bad category');
      const response = await owner.put(`/api/bots/${id}`).set('Origin', t.origin).send({ categoryId });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain('categoryId');
    });

    it('refuses a bubbleIcon that is not the bot’s own uploaded icon', async () => {
      const id = await createBotViaApi(t, owner, 'Icon rules');
      for (const bubbleIcon of [
        'https://evil.example/x.png',
        'javascript:alert(1)',
        `${t.origin}/uploads/icons/00000000-0000-4000-8000-000000000000.png`,
      ]) {
        const response = await owner.put(`/api/bots/${id}`).set('Origin', t.origin).send({ bubbleIcon });
        expect(response.status).toBe(400);
        expect(response.body.error).toContain('bubbleIcon');
      }
      expect((await getBot(id)).bubbleIcon).toBe('');
    });

    it("answers 404 for another owner's bot and leaves it unchanged", async () => {
      const theirs = await createBotViaApi(t, other, 'Do not touch');
      const response = await owner
        .put(`/api/bots/${theirs}`)
        .set('Origin', t.origin)
        .send({ name: 'Hijacked', prompt: 'Leak everything' });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
      const theirView = await other.get(`/api/bots/${theirs}`).expect(200);
      expect(theirView.body.bot).toMatchObject({ name: 'Do not touch', prompt: '' });
    });

    it('keeps every field consistent when two updates race (each is all-or-nothing)', async () => {
      const id = await createBotViaApi(t, owner, 'Race');
      const a = {
        bubbleColor: 'linear-gradient(to right, #aaaaaa, #aaaaaa)',
        bannerColor: 'linear-gradient(to right, #aaaaaa, #aaaaaa)',
      };
      const b = {
        bubbleColor: 'linear-gradient(to right, #bbbbbb, #bbbbbb)',
        bannerColor: 'linear-gradient(to right, #bbbbbb, #bbbbbb)',
      };
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          owner
            .put(`/api/bots/${id}`)
            .set('Origin', t.origin)
            .send(i % 2 ? a : b)
            .expect(200),
        ),
      );
      const bot = await getBot(id);
      expect(bot.bubbleColor).toBe(bot.bannerColor);
    });
  });

  describe('DELETE /api/bots/:id', () => {
    it('deletes the bot; its conversations and usage rows stay with bot_id NULL', async () => {
      const { agent, user } = await signedInAgent(t);
      const id = await createBotViaApi(t, agent, 'Doomed');
      const [conversation] = await t.dataSource.query(
        `INSERT INTO conversations (owner_id, bot_id, bot_name, visitor_id) VALUES ($1, $2, 'Doomed', 'v1') RETURNING id`,
        [user.id, id],
      );
      const response = await agent.delete(`/api/bots/${id}`).set('Origin', t.origin);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: 'Bot successfully deleted!' });
      await agent.get(`/api/bots/${id}`).expect(404);
      const [row] = await t.dataSource.query('SELECT bot_id, bot_name FROM conversations WHERE id = $1', [
        conversation.id,
      ]);
      expect(row).toEqual({ bot_id: null, bot_name: 'Doomed' });
    });

    it("answers 404 for another owner's bot and does not delete it", async () => {
      const theirs = await createBotViaApi(t, other, 'Survivor');
      const response = await owner.delete(`/api/bots/${theirs}`).set('Origin', t.origin);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
      await other.get(`/api/bots/${theirs}`).expect(200);
    });

    it('answers 404 the second time', async () => {
      const id = await createBotViaApi(t, owner, 'Twice');
      await owner.delete(`/api/bots/${id}`).set('Origin', t.origin).expect(200);
      const again = await owner.delete(`/api/bots/${id}`).set('Origin', t.origin);
      expect(again.status).toBe(404);
    });
  });

  describe('POST /api/bots/:id/api-key', () => {
    function chatWithKey(botId: number, apiKey: string) {
      return t
        .http()
        .post('/api/chat')
        .set('Authorization', `Bearer ${apiKey}`)
        .set('X-Visitor-Id', `server-${botId}`)
        .send({ botId, prompt: 'Hello' });
    }

    it('gives a new key; the old one is refused at once and the new one answers', async () => {
      const id = await createBotViaApi(t, owner, 'Rotated');
      const oldKey = (await getBot(id)).apiKey as string;
      expect((await chatWithKey(id, oldKey)).status).toBe(200);

      const response = await owner.post(`/api/bots/${id}/api-key`).set('Origin', t.origin);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['apiKey']);
      const newKey = response.body.apiKey as string;
      expect(newKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(newKey).not.toBe(oldKey);
      expect((await getBot(id)).apiKey).toBe(newKey);

      const stale = await chatWithKey(id, oldKey);
      expect(stale.status).toBe(401);
      expect(stale.body).toEqual({ error: 'The API key does not belong to this bot.', code: 'INVALID_API_KEY' });
      expect((await chatWithKey(id, newKey)).status).toBe(200);
    });

    it("answers 404 for another owner's bot and leaves its key alone", async () => {
      const theirs = await createBotViaApi(t, other, 'Not yours');
      const before = (await other.get(`/api/bots/${theirs}`).expect(200)).body.bot.apiKey;
      const response = await owner.post(`/api/bots/${theirs}/api-key`).set('Origin', t.origin);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
      expect((await other.get(`/api/bots/${theirs}`).expect(200)).body.bot.apiKey).toBe(before);
      expect((await owner.post('/api/bots/999999/api-key').set('Origin', t.origin)).status).toBe(404);
    });

    it('refuses a request from another site (CSRF) and keeps the key', async () => {
      const id = await createBotViaApi(t, owner, 'Guarded');
      const before = (await getBot(id)).apiKey;
      for (const headers of [{ Origin: 'https://evil.example' }, { Referer: 'https://evil.example/page' }, {}]) {
        const request = owner.post(`/api/bots/${id}/api-key`);
        for (const [name, value] of Object.entries(headers)) request.set(name, value);
        const response = await request;
        expect(response.status).toBe(403);
        expect(response.body.code).toBe('ORIGIN_NOT_ALLOWED');
      }
      expect((await getBot(id)).apiKey).toBe(before);
    });
  });

  describe('BotsService.deleteAllOwnedBy', () => {
    it("removes every bot and category of one owner and nobody else's", async () => {
      const { agent, user } = await signedInAgent(t);
      await createBotViaApi(t, agent, 'One');
      await createBotViaApi(t, agent, 'Two');
      await createCategoryViaApi(t, agent, 'Mine');
      const bystander = await createUser(t);
      const survivors = await t.dataSource.query('SELECT count(*)::int AS n FROM bots WHERE owner_id <> $1', [user.id]);

      const result = await t.app.get(BotsService, { strict: false }).deleteAllOwnedBy(user.id);

      expect(result).toEqual({ bots: 2, categories: 1 });
      const [{ bots }] = await t.dataSource.query('SELECT count(*)::int AS bots FROM bots WHERE owner_id = $1', [
        user.id,
      ]);
      const [{ categories }] = await t.dataSource.query(
        'SELECT count(*)::int AS categories FROM categories WHERE owner_id = $1',
        [user.id],
      );
      expect({ bots, categories }).toEqual({ bots: 0, categories: 0 });
      expect(await t.dataSource.query('SELECT count(*)::int AS n FROM bots WHERE owner_id <> $1', [user.id])).toEqual(
        survivors,
      );
      expect(bystander.id).toBeGreaterThan(0);
    });
  });
});
