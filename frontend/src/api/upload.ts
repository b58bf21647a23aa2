import { ApiError, toApiError } from './client';

export interface UploadOptions {
  /** Called as the request body goes out, with the fraction sent (0 to 1). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * POSTs a multipart form with XMLHttpRequest, whose upload events report progress (fetch has
 * none), with the session cookie. Answers and errors exactly as {@link apiFetch} does.
 */
export function apiUpload<T>(path: string, form: FormData, { onProgress, signal }: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('The upload was cancelled.', 'AbortError'));
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    };
    const abort = () => xhr.abort();
    signal?.addEventListener('abort', abort, { once: true });
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'The upload could not reach the server.', false));
    xhr.onload = () => {
      signal?.removeEventListener('abort', abort);
      const text = xhr.responseText;
      if (xhr.status >= 200 && xhr.status < 300) {
        if (!text) return resolve({} as T);
        try {
          return resolve(JSON.parse(text) as T);
        } catch {
          return reject(
            new ApiError(xhr.status, 'INVALID_RESPONSE', 'The server sent an answer that could not be read.', false),
          );
        }
      }
      const status = xhr.status >= 200 && xhr.status <= 599 ? xhr.status : 500;
      void toApiError(new Response(text || null, { status })).then(reject, reject);
    };
    onProgress?.(0);
    xhr.send(form);
  });
}
