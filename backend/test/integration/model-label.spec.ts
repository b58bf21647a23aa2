import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { createBotViaApi } from '../support/bot-factories.js';
import { startAppWithTwoOwners } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

/**
 * The model's name under the widget's input (docs/product.md#embedded-widget): hidden from
 * visitors unless the owner turns `showModelLabel` on. The public face carries '' until then, so
 * no widget (an old cached one included) can show it.
 */
let t: TestApp;
let owner: request.Agent;
let other: request.Agent;

beforeAll(async () => {
  ({ t, owner, other } = await startAppWithTwoOwners());
});
afterAll(() => t.close());

const face = async (botId: number) =>
  (await t.http().get(`/api/widget/bots/${botId}`)).body.bot as Record<string, unknown>;
const put = (agent: request.Agent, botId: number, body: unknown) =>
  agent
    .put(`/api/bots/${botId}`)
    .set('Origin', t.origin)
    .send(body as object);

describe('showModelLabel', () => {
  it('is off for a new bot: the owner sees false, visitors no model name', async () => {
    const botId = await createBotViaApi(t, owner);
    const mine = await owner.get(`/api/bots/${botId}`).set('Origin', t.origin);
    expect(mine.status).toBe(200);
    expect(mine.body.bot.showModelLabel).toBe(false);
    const bot = await face(botId);
    expect(bot.modelLabel).toBe('');
    expect(bot.model).toBe('gpt-3.5-turbo');
    expect(bot.showModelLabel).toBeUndefined();
    expect(JSON.stringify(bot)).not.toContain('GPT-3.5');
  });

  it('turned on, the face names the model; turned off again, it is gone', async () => {
    const botId = await createBotViaApi(t, owner);
    const on = await put(owner, botId, { showModelLabel: true });
    expect(on.status).toBe(200);
    expect(on.body.bot.showModelLabel).toBe(true);
    expect((await face(botId)).modelLabel).toBe('GPT-3.5 Turbo');
    const off = await put(owner, botId, { showModelLabel: false });
    expect(off.status).toBe(200);
    expect((await face(botId)).modelLabel).toBe('');
  });

  it.each([['yes'], [1], [null], [{}]])('refuses %j with 400 naming the field and saves nothing', async (value) => {
    const botId = await createBotViaApi(t, owner);
    const response = await put(owner, botId, { showModelLabel: value, customGreeting: 'Changed?' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: expect.stringContaining('showModelLabel'),
      code: expect.any(String),
    });
    expect(response.text).not.toMatch(/at \w+ \(|stack/i);
    const mine = await owner.get(`/api/bots/${botId}`).set('Origin', t.origin);
    expect(mine.body.bot.showModelLabel).toBe(false);
    expect(mine.body.bot.customGreeting).not.toBe('Changed?');
    expect((await face(botId)).modelLabel).toBe('');
  });

  it("cannot be turned on for another owner's bot (404, unchanged)", async () => {
    const botId = await createBotViaApi(t, owner);
    const response = await put(other, botId, { showModelLabel: true });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'Bot not found.', code: 'BOT_NOT_FOUND' });
    expect((await face(botId)).modelLabel).toBe('');
  });
});
