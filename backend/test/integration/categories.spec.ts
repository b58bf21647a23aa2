import type request from 'supertest';
import { createBotViaApi, createCategoryViaApi, itAppliesTheNameRule } from '../support/bot-factories.js';
import { signedInAgent, startAppWithTwoOwners } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

describe('categories API', () => {
  let t: TestApp;
  let owner: request.Agent;
  let other: request.Agent;

  beforeAll(async () => {
    ({ t, owner, other } = await startAppWithTwoOwners());
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 401 without a session and 403 before billing is set up', async () => {
    for (const [method, path] of [
      ['get', '/api/categories'],
      ['post', '/api/categories'],
      ['delete', '/api/categories/1'],
    ] as const) {
      const response = await t.http()[method](path).set('Origin', t.origin).send({ name: 'x' });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('UNAUTHORIZED');
    }
    const { agent } = await signedInAgent(t, { billing: 'none' });
    const response = await agent.post('/api/categories').set('Origin', t.origin).send({ name: 'x' });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('SETUP_REQUIRED');
  });

  describe('POST /api/categories', () => {
    it('creates a category with the trimmed name: 201 {message, category}', async () => {
      const response = await owner.post('/api/categories').set('Origin', t.origin).send({ name: '  Marketing  ' });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        message: 'Category created successfully!',
        category: { id: expect.any(Number), name: 'Marketing' },
      });
    });

    itAppliesTheNameRule(() => ({ t, owner }), {
      path: '/api/categories',
      field: 'name',
      noun: 'Category',
      max: 100,
    });

    it('refuses a duplicate name, whatever its case or spacing, with 409', async () => {
      await createCategoryViaApi(t, owner, 'Support');
      for (const name of ['Support', 'SUPPORT', '  support ']) {
        const response = await owner.post('/api/categories').set('Origin', t.origin).send({ name });
        expect(response.status).toBe(409);
        expect(response.body).toEqual({
          error: 'You already have a category with this name.',
          code: 'CATEGORY_EXISTS',
        });
      }
      const list = await owner.get('/api/categories').expect(200);
      expect(list.body.categories.filter((c: { name: string }) => c.name.toLowerCase() === 'support')).toHaveLength(1);
    });

    it('lets two owners use the same name', async () => {
      await createCategoryViaApi(t, owner, 'Shared name');
      await createCategoryViaApi(t, other, 'Shared name');
    });

    it('creates one category when the same name is sent twice at once', async () => {
      const responses = await Promise.all(
        [1, 2, 3].map(() => owner.post('/api/categories').set('Origin', t.origin).send({ name: 'Concurrent' })),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    });
  });

  describe('GET /api/categories', () => {
    it("lists only the caller's categories, in creation order", async () => {
      const { agent } = await signedInAgent(t);
      const a = await createCategoryViaApi(t, agent, 'Zeta');
      const b = await createCategoryViaApi(t, agent, 'Alpha');
      await createCategoryViaApi(t, other, 'Not yours');
      const response = await agent.get('/api/categories').expect(200);
      expect(response.body).toEqual({
        categories: [
          { id: a, name: 'Zeta' },
          { id: b, name: 'Alpha' },
        ],
      });
    });
  });

  describe('DELETE /api/categories/:id', () => {
    it('deletes the category; its bots stay, uncategorised', async () => {
      const category = await createCategoryViaApi(t, owner, 'Temporary');
      const bot = await createBotViaApi(t, owner, 'In temporary');
      await owner.put(`/api/bots/${bot}`).set('Origin', t.origin).send({ categoryId: category }).expect(200);

      const response = await owner.delete(`/api/categories/${category}`).set('Origin', t.origin);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: 'Category deleted successfully!' });

      const list = await owner.get('/api/categories').expect(200);
      expect(list.body.categories.map((c: { id: number }) => c.id)).not.toContain(category);
      const kept = await owner.get(`/api/bots/${bot}`).expect(200);
      expect(kept.body.bot.categoryId).toBeNull();
    });

    it("answers 404 for another owner's category and leaves it and its bots alone", async () => {
      const theirs = await createCategoryViaApi(t, other, 'Theirs to keep');
      const theirBot = await createBotViaApi(t, other, 'Their bot');
      await other.put(`/api/bots/${theirBot}`).set('Origin', t.origin).send({ categoryId: theirs }).expect(200);

      const response = await owner.delete(`/api/categories/${theirs}`).set('Origin', t.origin);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: 'Category not found.', code: 'CATEGORY_NOT_FOUND' });

      const list = await other.get('/api/categories').expect(200);
      expect(list.body.categories.map((c: { id: number }) => c.id)).toContain(theirs);
      expect((await other.get(`/api/bots/${theirBot}`).expect(200)).body.bot.categoryId).toBe(theirs);
    });

    it('answers 404 for a category that does not exist and 400 for an id that is not a number', async () => {
      const missing = await owner.delete('/api/categories/99999').set('Origin', t.origin);
      expect(missing.status).toBe(404);
      const bad = await owner.delete('/api/categories/abc').set('Origin', t.origin);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('INVALID_ID');
    });
  });
});
