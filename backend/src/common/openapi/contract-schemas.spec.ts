import fs from 'node:fs';
import path from 'node:path';
import { inlineRefs } from '../../../test/support/openapi-refs.js';
import { answerSchema, withContractSchemas } from './schemas.js';

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
  schemas: Record<string, Record<string, unknown>>;
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
    const inlined = (schema: unknown) => inlineRefs(schema, generated.schemas) as Record<string, unknown>;
    const me = inlined(generated.routes['UsersController.me']);
    expect(me).toMatchObject({ type: 'object', properties: { id: { type: 'number' }, email: { type: 'string' } } });
    expect(inlined(generated.routes['BotsController.list'])).toMatchObject({
      properties: { bots: { type: 'array', items: { properties: { leadCapture: { type: 'object' } } } } },
    });
    const chat = inlined(generated.types.ChatAnswerResponse);
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
    expect(inlined(answerSchema('ChatController', 'send', 'ChatAnswerResponse'))).toEqual(chat);
    expect(inlined(answerSchema('UsersController', 'me'))).toEqual(me);
  });

  it('write each contract shape once, which the answers reference', () => {
    expect(generated.routes['UsersController.me']).toEqual({ $ref: '#/components/schemas/MeResponse' });
    expect(generated.schemas.ChatAnswerResponse).toMatchObject({
      properties: { citations: { type: 'array', items: { $ref: '#/components/schemas/Citation' } } },
    });
    const references = [...JSON.stringify(generated).matchAll(/"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]);
    const missing = references.filter((name) => !(name in generated.schemas));
    expect(references.length).toBeGreaterThan(50);
    expect(missing).toEqual([]);
    expect(Object.keys(generated.schemas).length).toBeGreaterThan(30);
  });

  it("are added to the document's components, and a DTO of a contract type's name is refused", () => {
    const document = { openapi: '3.0.0', info: { title: 'API', version: '1' }, paths: {} };
    const dto = { type: 'object', properties: { name: { type: 'string' } } };
    const added = withContractSchemas({ ...document, components: { schemas: { CreateBotDto: dto } } });
    expect(added.components?.schemas).toEqual({ CreateBotDto: dto, ...generated.schemas });
    expect(() => withContractSchemas({ ...document, components: { schemas: { BotResponse: dto } } })).toThrow(
      'OpenAPI schemas named by both a DTO and the contract: BotResponse',
    );
  });

  it('name a contract type in every answer but a few of primitive fields', () => {
    expect(generated.notFromContract.length).toBeLessThanOrEqual(15);
    expect(Object.keys(generated.routes).length).toBeGreaterThan(50);
  });
});
