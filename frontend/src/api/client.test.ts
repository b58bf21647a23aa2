import { afterEach, describe, expect, it, vi } from 'vitest';
import { authApi } from './auth';
import { ApiError, apiFetch } from './client';
import { uploadsApi } from './uploads';

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return vi.fn().mockResolvedValue(new Response(status === 204 ? null : text, { status, headers }));
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('apiFetch', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends the session cookie and JSON, and returns the parsed answer', async () => {
    const fetchMock = answer(200, { message: 'Logged in.' });
    vi.stubGlobal('fetch', fetchMock);

    await expect(authApi.login({ email: ' Owner@Example.COM ', password: 'Secret!23' })).resolves.toEqual({
      message: 'Logged in.',
    });

    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(path).toBe('/api/auth/login');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(JSON.parse(init.body as string)).toEqual({ email: 'owner@example.com', password: 'Secret!23' });
  });

  it('turns {error, code} into an ApiError with status, code and the server sentence', async () => {
    vi.stubGlobal('fetch', answer(403, { error: 'Your last payment failed.', code: 'PAYMENT_FAILED' }));

    const error = await caught(apiFetch('/api/bots'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(403);
    expect(error.code).toBe('PAYMENT_FAILED');
    expect(error.message).toBe('Your last payment failed.');
    expect(error.fromServer).toBe(true);
  });

  it('gives a readable message and an HTTP_ code when the error body is not JSON', async () => {
    vi.stubGlobal('fetch', answer(502, '<html>Bad gateway</html>', { 'Content-Type': 'text/html' }));

    const error = await caught(apiFetch('/api/chat', { method: 'POST', body: {} }));
    expect(error.status).toBe(502);
    expect(error.code).toBe('HTTP_502');
    expect(error.message).toBe('The server had a problem. Please try again.');
    expect(error.fromServer).toBe(false);
  });

  it('says "briefly unavailable" for a 503, from the API or a bare proxy page, and lets screens show it', async () => {
    const sentence = 'Botsmith is briefly unavailable. Please try again in a moment.';
    vi.stubGlobal('fetch', answer(503, { error: sentence, code: 'SERVICE_UNAVAILABLE' }));
    const fromApi = await caught(apiFetch('/api/bots'));
    expect([fromApi.status, fromApi.code, fromApi.message, fromApi.displayable]).toEqual([
      503,
      'SERVICE_UNAVAILABLE',
      sentence,
      sentence,
    ]);

    vi.stubGlobal(
      'fetch',
      answer(503, '<html>503 Service Temporarily Unavailable</html>', { 'Content-Type': 'text/html' }),
    );
    const fromProxy = await caught(apiFetch('/api/bots'));
    expect([fromProxy.code, fromProxy.message, fromProxy.displayable]).toEqual(['HTTP_503', sentence, sentence]);

    vi.stubGlobal(
      'fetch',
      answer(500, { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' }),
    );
    expect((await caught(apiFetch('/api/bots'))).displayable).toBeNull();
  });

  it('uses the server error text even without a code', async () => {
    vi.stubGlobal('fetch', answer(401, { error: 'Invalid email or password.' }));

    const error = await caught(apiFetch('/api/auth/login', { method: 'POST', body: {} }));
    expect(error.code).toBe('HTTP_401');
    expect(error.message).toBe('Invalid email or password.');
  });

  it('reports a network failure as status 0 with code NETWORK_ERROR', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    const error = await caught(apiFetch('/api/user/me'));
    expect(error.isNetworkError).toBe(true);
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toBe('Failed to fetch');
  });

  it('returns {} for an empty success body', async () => {
    vi.stubGlobal('fetch', answer(204, ''));
    await expect(apiFetch('/api/auth/logout', { method: 'POST' })).resolves.toEqual({});
  });

  it('sends uploads as multipart without forcing a JSON content type', async () => {
    const fetchMock = answer(200, { fileUrl: '/uploads/icon.png' });
    vi.stubGlobal('fetch', fetchMock);

    await uploadsApi.uploadIcon(7, new File(['png'], 'icon.png', { type: 'image/png' }));

    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(path).toBe('/api/upload/icon/7');
    expect(init.body).toBeInstanceOf(FormData);
    expect((init.body as FormData).get('icon')).toBeInstanceOf(File);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });
});
