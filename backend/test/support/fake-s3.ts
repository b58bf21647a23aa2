import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeS3Object {
  body: Buffer;
  contentType: string | undefined;
}

export interface FakeS3 {
  url: string;
  /** `bucket/key` -> object. */
  objects: Map<string, FakeS3Object>;
  /** Every request seen: method, path and whether it was signed with the test key. */
  requests: { method: string; path: string; signed: boolean }[];
  close(): Promise<void>;
}

function xmlError(res: http.ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

/**
 * A small S3-compatible server (path-style PUT/GET/HEAD/DELETE of objects, S3's XML errors),
 * enough for the real @aws-sdk/client-s3 to talk to, like MinIO would.
 */
export async function startFakeS3(accessKeyId: string): Promise<FakeS3> {
  const objects = new Map<string, FakeS3Object>();
  const requests: FakeS3['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://s3.local').pathname).replace(/^\//, '');
      const signed = String(req.headers.authorization ?? '').startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`);
      requests.push({ method: req.method ?? '', path, signed });
      if (!signed) return xmlError(res, 403, 'AccessDenied', 'Access Denied');
      if (req.method === 'PUT') {
        objects.set(path, { body: Buffer.concat(chunks), contentType: req.headers['content-type'] });
        res.writeHead(200, { ETag: '"fake"' });
        return res.end();
      }
      const object = objects.get(path);
      if (req.method === 'GET' || req.method === 'HEAD') {
        if (!object) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        res.writeHead(200, {
          'Content-Type': object.contentType ?? 'application/octet-stream',
          'Content-Length': String(object.body.length),
          ETag: '"fake"',
        });
        return res.end(req.method === 'GET' ? object.body : undefined);
      }
      if (req.method === 'DELETE') {
        objects.delete(path);
        res.writeHead(204);
        return res.end();
      }
      xmlError(res, 405, 'MethodNotAllowed', 'Not supported by the fake.');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
