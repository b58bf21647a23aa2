/**
 * The error `promise` fails with, which must be a `kind` (any other failure is thrown again, so
 * the test shows it); a promise that succeeds fails the test.
 */
export async function failureOf<E extends Error>(
  promise: Promise<unknown>,
  kind: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof kind) return error;
    throw error;
  }
  throw new Error(`expected a ${kind.name}, but the call succeeded`);
}
