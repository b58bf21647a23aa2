import fs from 'node:fs';
import path from 'node:path';
import { answerSchema } from './schemas.js';

/**
 * The answers' schemas in the OpenAPI document are generated from the contract's types
 * (backend/scripts/contract-schemas.mjs, run by the backend build): this spec generates them again
 * from the code as it is and fails when contract-schemas.generated.ts differs, so a contract type
 * or a controller's return type that changed without its documentation fails `npm test` (backend
 * unit step). The OpenAPI spec checks the document itself against the same file.
 */
interface Generated {
  routes: Record<string, Record<string, unknown>>;
  types: Record<string, Record<string, unknown>>;
  notFromContract: string[];
}
interface Generator {
  OUTPUT: string;
  generate(): Generated;
  render(generated: Generated): string;
}

const SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/contract-schemas.mjs');
let generated: Generated;
let generator: Generator;

beforeAll(async () => {
  generator = (await import(SCRIPT)) as Generator;
  generated = generator.generate();
}, 180_000);

describe('the generated answer schemas', () => {
  it('are those of the code as it is (run node backend/scripts/contract-schemas.mjs after changing a type)', () => {
    expect(fs.readFileSync(generator.OUTPUT, 'utf8')).toBe(generator.render(generated));
  });

  it("come from the contract's types, with their doc comments as descriptions", () => {
    const me = generated.routes['UsersController.me'];
    expect(me).toMatchObject({ type: 'object', properties: { id: { type: 'number' }, email: { type: 'string' } } });
    expect(generated.routes['BotsController.list']).toMatchObject({
      properties: { bots: { type: 'array', items: { properties: { leadCapture: { type: 'object' } } } } },
    });
    const chat = generated.types.ChatAnswerResponse;
    expect(chat).toMatchObject({
      required: ['message', 'messageId', 'citations'],
      properties: {
        messageId: { type: 'number', nullable: true },
        handoff: { type: 'boolean', enum: [true] },
        citations: { type: 'array', items: { required: ['sourceId', 'name', 'page', 'url'] } },
      },
    });
    expect(String((chat.properties as Record<string, { description?: string }>).messageId.description)).toContain(
      'POST /api/chat/feedback',
    );
    expect(answerSchema('ChatController', 'send', 'ChatAnswerResponse')).toEqual(chat);
    expect(answerSchema('UsersController', 'me')).toEqual(me);
  });

  it('name a contract type in every answer but a few of primitive fields', () => {
    expect(generated.notFromContract.length).toBeLessThanOrEqual(15);
    expect(Object.keys(generated.routes).length).toBeGreaterThan(50);
  });
});
