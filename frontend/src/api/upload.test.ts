import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './client';
import { apiUpload } from './upload';
import { uploadsApi } from './uploads';

/** A stand-in XMLHttpRequest the test drives by hand. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  withCredentials = false;
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  aborted = false;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

describe('apiUpload (XMLHttpRequest with progress)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('posts the form with the session cookie, reports progress and resolves with the JSON answer', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const progress: number[] = [];
    const file = new File(['%PDF'], 'a.pdf', { type: 'application/pdf' });
    const pending = uploadsApi.uploadDocument(5, file, { onProgress: (f) => progress.push(f) });
    const xhr = FakeXhr.last;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/upload/update-document/5');
    expect(xhr.withCredentials).toBe(true);
    expect((xhr.body as FormData).get('document')).toBeInstanceOf(File);
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 200, total: 200 });
    xhr.answer(200, { document: { originalName: 'a.pdf', filePath: '/uploads/documents/x.pdf' } });
    await expect(pending).resolves.toEqual({
      document: { originalName: 'a.pdf', filePath: '/uploads/documents/x.pdf' },
    });
    expect(progress).toEqual([0, 0.25, 1]);
  });

  it('turns an error answer into an ApiError with the server sentence and code', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const pending = apiUpload('/api/upload/icon/1', new FormData());
    FakeXhr.last.answer(413, { error: 'Image is too big. Keep under 500KB in size.', code: 'FILE_TOO_LARGE' });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 413,
      code: 'FILE_TOO_LARGE',
      message: 'Image is too big. Keep under 500KB in size.',
    });
  });

  it('reports a network failure as NETWORK_ERROR and can be cancelled', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const failing = apiUpload('/x', new FormData());
    FakeXhr.last.onerror?.();
    await expect(failing).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });

    const controller = new AbortController();
    const cancelled = apiUpload('/x', new FormData(), { signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeXhr.last.aborted).toBe(true);
  });
});
