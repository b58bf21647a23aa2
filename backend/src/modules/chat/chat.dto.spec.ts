import fc from 'fast-check';
import { AppError } from '../../common/app-error.js';
import { CHAT_LIMITS } from '../../common/constants.js';
import { createValidationPipe } from '../../common/validation.js';
import { ChatRequestDto } from './chat.dto.js';

const pipe = createValidationPipe();

/** Runs a body through the same global pipe the app uses: the DTO, or the 400 AppError. */
async function validate(body: unknown): Promise<ChatRequestDto | AppError> {
  try {
    return (await pipe.transform(body, { type: 'body', metatype: ChatRequestDto })) as ChatRequestDto;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

function refused(result: ChatRequestDto | AppError): boolean {
  if (!(result instanceof AppError)) return false;
  expect(result.getStatus()).toBe(400);
  expect(result.code).toBe('VALIDATION_FAILED');
  return true;
}

const item = (maxChars: number) =>
  fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.string({ maxLength: maxChars }) });

describe('POST /api/chat input limits', () => {
  it('accepts a prompt exactly when it is 1 to 2000 characters after trimming, and trims it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.string({ minLength: 1990, maxLength: 2010 }),
          fc.constantFrom(' ', '\n\t ', 'a'.repeat(2000), ` ${'a'.repeat(2000)} `, 'a'.repeat(2001)),
        ),
        async (prompt) => {
          const result = await validate({ botId: 1, chatHistory: [], prompt });
          const length = prompt.trim().length;
          const acceptable = length >= 1 && length <= CHAT_LIMITS.promptMaxChars;
          expect(refused(result)).toBe(!acceptable);
          if (acceptable) expect((result as ChatRequestDto).prompt).toBe(prompt.trim());
        },
      ),
      { numRuns: 200 },
    );
  });

  it('accepts a history exactly when it has at most 50 messages of at most 4000 characters, 50000 in all', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.array(item(30), { maxLength: 60 }),
          fc.array(item(4100), { maxLength: 3 }),
          fc.array(item(4000), { minLength: 10, maxLength: 15 }),
        ),
        async (history) => {
          const result = await validate({ botId: 1, chatHistory: history, prompt: 'Hi' });
          const total = history.reduce((sum, h) => sum + h.content.length, 0);
          const acceptable =
            history.length <= CHAT_LIMITS.historyMaxItems &&
            history.every((h) => h.content.length <= CHAT_LIMITS.historyItemMaxChars) &&
            total <= CHAT_LIMITS.historyTotalMaxChars;
          expect(refused(result)).toBe(!acceptable);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('accepts only the user and assistant roles in the history', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 12 }), async (role) => {
        const result = await validate({ botId: 1, chatHistory: [{ role, content: 'x' }], prompt: 'Hi' });
        expect(refused(result)).toBe(role !== 'user' && role !== 'assistant');
      }),
    );
    expect(refused(await validate({ botId: 1, chatHistory: [{ role: 'error', content: 'x' }], prompt: 'Hi' }))).toBe(
      true,
    );
    expect(refused(await validate({ botId: 1, chatHistory: [{ role: 'system', content: 'x' }], prompt: 'Hi' }))).toBe(
      true,
    );
  });

  it('accepts a bot id as a positive whole number or its digits, nothing else', async () => {
    for (const botId of [1, '1', 42, '2147483647']) {
      const result = await validate({ botId, prompt: 'Hi' });
      expect(result).toBeInstanceOf(ChatRequestDto);
      expect((result as ChatRequestDto).botId).toBe(Number(botId));
    }
    for (const botId of [0, -1, 1.5, '1e3', 'abc', '', null, true, [], {}, 2147483648, ' 1']) {
      expect(refused(await validate({ botId, prompt: 'Hi' }))).toBe(true);
    }
  });

  it('refuses unknown fields, at the top and inside history items, naming them', async () => {
    const top = await validate({ botId: 1, prompt: 'Hi', price: 0 });
    expect(refused(top)).toBe(true);
    expect((top as AppError).getResponse()).toMatchObject({ error: expect.stringContaining('price') });
    expect(
      refused(await validate({ botId: 1, prompt: 'Hi', chatHistory: [{ role: 'user', content: 'a', id: 3 }] })),
    ).toBe(true);
    expect(refused(await validate({ botId: 1, prompt: 'Hi', chatHistory: ['hello'] }))).toBe(true);
    expect(refused(await validate({ botId: 1, prompt: 'Hi', chatHistory: 'hello' }))).toBe(true);
  });

  it('accepts the model field and an absent history, as the widget may send them', async () => {
    const result = await validate({ botId: '3', prompt: ' Hello ', model: 'gpt-4o' });
    expect(result).toMatchObject({ botId: 3, prompt: 'Hello', model: 'gpt-4o' });
  });
});

describe('POST /api/chat visitor', () => {
  const body = (visitor: unknown) => ({ botId: 1, prompt: 'Hi', visitor });

  it('trims the name and the e-mail, lower-casing only its domain', async () => {
    const result = (await validate(body({ name: '  Ana Lima ', email: ' Ana.Lima@Example.COM ' }))) as ChatRequestDto;
    expect(result.visitor).toEqual({ name: 'Ana Lima', email: 'Ana.Lima@example.com' });
  });

  it('takes an empty object, a name alone and an e-mail alone', async () => {
    for (const visitor of [{}, { name: 'Ana' }, { email: 'ana@example.com' }]) {
      const result = await validate(body(visitor));
      expect(result).not.toBeInstanceOf(AppError);
      expect((result as ChatRequestDto).visitor).toEqual(visitor);
    }
  });

  it.each([
    ['a number as name', { name: 7, email: 'ana@example.com' }, { email: 'ana@example.com' }],
    ['an empty name', { name: '   ' }, {}],
    ['a long name', { name: 'a'.repeat(101), email: 'ana@example.com' }, { email: 'ana@example.com' }],
    ['a bad e-mail', { name: 'Ana', email: 'ana@' }, { name: 'Ana' }],
    ['a number as e-mail', { name: 'Ana', email: 5 }, { name: 'Ana' }],
    ['an object as name', { name: { first: 'Ana' } }, {}],
    ['a long e-mail', { email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com` }, {}],
  ])('leaves out %s and keeps the rest: a host page mistake never stops a chat', async (_, visitor, kept) => {
    const result = await validate(body(visitor));
    expect(result).not.toBeInstanceOf(AppError);
    expect(JSON.parse(JSON.stringify((result as ChatRequestDto).visitor))).toEqual(kept);
  });

  it.each([
    ['a string', 'Ana', /The field visitor must be an object/],
    ['an array', [{ name: 'Ana' }], /The field visitor must be an object/],
    ['a number', 7, /The field visitor must be an object/],
    ['an unknown key', { name: 'Ana', phone: '1' }, /property phone should not exist/i],
  ])('refuses %s', async (_, visitor, message) => {
    const result = await validate(body(visitor));
    expect(refused(result)).toBe(true);
    expect((result as AppError).getResponse()).toMatchObject({ error: expect.stringMatching(message) });
  });

  it('refuses a name holding a NUL character rather than cleaning it', async () => {
    const result = await validate(body({ name: 'An\u0000a' }));
    expect(result).toBeInstanceOf(AppError);
    expect((result as AppError).code).toBe('INVALID_CHARACTERS');
    expect((result as AppError).getResponse()).toMatchObject({ error: expect.stringContaining('visitor.name') });
  });

  it.each([
    ['a lone surrogate', 'a\ud800@example.com', 'broken Unicode'],
    ['a trailing lone surrogate', 'ana@example.com\udc00', 'broken Unicode'],
    ['a NUL character', 'ana\u0000@example.com', 'NUL character'],
  ])('refuses an e-mail holding %s with a sentence (isEmail used to throw: a 500)', async (_, email, problem) => {
    const result = await validate(body({ name: 'Ana', email }));
    expect(result).toBeInstanceOf(AppError);
    expect((result as AppError).getStatus()).toBe(400);
    expect((result as AppError).code).toBe('INVALID_CHARACTERS');
    expect((result as AppError).getResponse()).toMatchObject({
      error: expect.stringMatching(new RegExp(`^The field visitor\\.email contains (a )?${problem}`)),
    });
  });
});
