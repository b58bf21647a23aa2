import type { DataSource } from 'typeorm';
import { isSqlValue, sqlOf, sqlValue, StatementParts, StatementRunner, partsOf } from './statement.js';

describe('StatementParts', () => {
  it('numbers every parameter in order, casts it, and lists the parts and the columns as added', () => {
    const parts = new StatementParts();
    parts.with('spent', `UPDATE users SET credits_cents = credits_cents - ${parts.param(3, 'integer')} RETURNING id`);
    parts.with('logged', `INSERT INTO messages (content) SELECT ${parts.param('hi', 'text')} FROM spent RETURNING id`);
    parts.select('message_id', '(SELECT id FROM logged)');
    const [sql, params] = parts.toQuery();
    expect(sql).toBe(
      'WITH spent AS (\nUPDATE users SET credits_cents = credits_cents - $1::integer RETURNING id\n),\n' +
        'logged AS (\nINSERT INTO messages (content) SELECT $2::text FROM spent RETURNING id\n)\n' +
        'SELECT (SELECT id FROM logged) AS "message_id"',
    );
    expect(params).toEqual([3, 'hi']);
  });

  it('refuses a part or a column named twice: names are the parts’ contract with each other', () => {
    const parts = new StatementParts();
    parts.with('spent', 'SELECT 1');
    parts.select('id', '1');
    expect(() => parts.with('spent', 'SELECT 2')).toThrow('already has a part named spent');
    expect(() => parts.select('id', '2')).toThrow('already selects id');
  });

  it('refuses an empty statement, and selects a constant when no part reads anything back', () => {
    expect(() => new StatementParts().toQuery()).toThrow('at least one part');
    const parts = new StatementParts();
    parts.with('released', 'DELETE FROM chat_reservations WHERE false');
    expect(parts.toQuery()[0]).toMatch(/SELECT 1 AS "done"$/);
  });

  it('tells a part’s value from a plain value (a string is never taken for SQL)', () => {
    const value = sqlValue('(SELECT id FROM logged)');
    expect(isSqlValue(value)).toBe(true);
    expect(sqlOf(value)).toBe('(SELECT id FROM logged)');
    for (const plain of ['(SELECT 1)', 7, null, { sql: 'SELECT 1' }]) expect(isSqlValue(plain)).toBe(false);
  });
});

describe('StatementParts.toInlinedSql: a statement for a batch, its values written in', () => {
  it('writes ids, numbers, dates, UUIDs and null as literals, each under its cast', () => {
    const parts = new StatementParts();
    const at = new Date('2026-11-03T10:00:00.000Z');
    parts.with(
      'held',
      `SELECT ${parts.param(7, 'integer')}, ${parts.param('v1-Ab_9.x', 'varchar')}, ${parts.param(at, 'timestamptz')},
              ${parts.param('0b6f6a3e-5c1d-4c43-9a55-1f0b0d9b2f11', 'uuid')}, ${parts.param(null, 'text')}`,
    );
    parts.select('n', '1');
    expect(parts.toInlinedSql()).toBe(
      "WITH held AS (\nSELECT 7::integer, 'v1-Ab_9.x'::varchar, '2026-11-03T10:00:00.000Z'::timestamptz,\n" +
        '              \'0b6f6a3e-5c1d-4c43-9a55-1f0b0d9b2f11\'::uuid, NULL::text\n)\nSELECT 1 AS "n"',
    );
  });

  it.each([
    ['a quote', "x' OR '1'='1", 'varchar'],
    ['a backslash', 'x\\', 'varchar'],
    ['a statement after it', 'x;DROP TABLE bots', 'text'],
    ['a dollar quote', '$$x$$', 'text'],
    ['a space', 'a b', 'text'],
    ['a letter outside ASCII', 'café', 'text'],
    ['a NUL', 'a\u0000', 'text'],
    ['201 characters', 'a'.repeat(201), 'text'],
    ['a UUID that is not one', "0b6f6a3e-5c1d-4c43-9a55-1f0b0d9b2f1'", 'uuid'],
    ['a fraction', 1.5, 'integer'],
    ['an unsafe integer', 2 ** 53, 'integer'],
    ['an invalid date', new Date(Number.NaN), 'timestamptz'],
    ['an object', { toString: () => '1' }, 'integer'],
    ['a boolean', true, 'boolean'],
  ])('refuses %s: nothing that could carry outside text is written into a batch', (_name, value, type) => {
    const parts = new StatementParts();
    parts.with('held', `SELECT ${parts.param(value, type)}`);
    expect(() => parts.toInlinedSql()).toThrow('cannot be written into a batch');
  });
});

describe('StatementRunner', () => {
  /** A pool whose statements fail with the given errors, one per run, then answer one row. */
  function failing(...errors: Error[]) {
    const sent: Array<{ name: string; text: string; values: unknown[] }> = [];
    const pool = {
      query: async (config: { name: string; text: string; values: unknown[] }) => {
        sent.push(config);
        const error = errors.shift();
        if (error) throw error;
        return { rows: [{ done: 1 }] };
      },
    };
    const runner = new StatementRunner({ driver: { master: pool } } as unknown as DataSource);
    return { runner, sent };
  }
  const statement = (runner: StatementRunner) => {
    const s = runner.begin();
    const parts = partsOf(s);
    parts.with('released', `DELETE FROM chat_reservations WHERE id = ${parts.param('r-1', 'uuid')}`);
    return s;
  };
  const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });

  it('prepares a statement under its text’s name, the same name for the same text', async () => {
    const { runner, sent } = failing();
    await expect(runner.run(statement(runner))).resolves.toEqual({ done: 1 });
    await runner.run(statement(runner));
    expect(sent).toHaveLength(2);
    expect(sent[0].name).toMatch(/^p_[\w-]{24}$/);
    expect(sent[1].name).toBe(sent[0].name);
    expect(sent[0].values).toEqual(['r-1']);
  });

  it('runs a statement again after a deadlock (it left nothing behind), up to three runs', async () => {
    const retried = failing(deadlock, deadlock);
    await expect(retried.runner.runRetryingDeadlocks(statement(retried.runner))).resolves.toEqual({ done: 1 });
    expect(retried.sent).toHaveLength(3);
    const given = failing(deadlock, deadlock, deadlock);
    await expect(given.runner.runRetryingDeadlocks(statement(given.runner))).rejects.toBe(deadlock);
    expect(given.sent).toHaveLength(3);
  });

  it('never runs again after any other failure', async () => {
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    const { runner, sent } = failing(unique);
    await expect(runner.runRetryingDeadlocks(statement(runner))).rejects.toBe(unique);
    expect(sent).toHaveLength(1);
  });
});
