import fs from 'node:fs';
import path from 'node:path';
import { S3Storage } from '../../src/modules/storage/s3.storage.js';
import { createBotViaApi, makePdf, makePng } from '../support/bot-factories.js';
import { signedInAgent } from '../support/factories.js';
import { startFakeS3, type FakeS3 } from '../support/fake-s3.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const KEY_ID = 'AKIATESTBOTSMITH';
const SECRET = 'test-secret-key-for-the-fake-s3-server';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('S3 storage adapter (real AWS SDK against an S3-compatible server)', () => {
  let s3: FakeS3;
  let storage: S3Storage;

  beforeAll(async () => {
    s3 = await startFakeS3(KEY_ID);
    storage = new S3Storage({
      bucket: 'uploads-bucket',
      region: 'eu-west-1',
      endpoint: s3.url,
      accessKeyId: KEY_ID,
      secretAccessKey: SECRET,
    });
  });
  afterAll(async () => {
    storage.destroy();
    await s3.close();
  });

  it('puts, gets and deletes an object, path-style and signed', async () => {
    const key = 'icons/6f1c2a4e-8d2b-4c1e-9a7f-0b3c5d7e9f11.png';
    const bytes = makePng(4);
    await storage.put(key, bytes, 'image/png');
    expect(s3.objects.get(`uploads-bucket/${key}`)).toEqual({ body: bytes, contentType: 'image/png' });

    const file = await storage.get(key);
    expect(file?.size).toBe(bytes.length);
    expect(Buffer.compare(await readAll(file!.body), bytes)).toBe(0);

    await storage.delete(key);
    expect(s3.objects.has(`uploads-bucket/${key}`)).toBe(false);
    expect(s3.requests.every((r) => r.signed && r.path.startsWith('uploads-bucket/'))).toBe(true);
  });

  it('answers null for a missing object and deletes a missing object without error', async () => {
    const key = 'documents/00000000-0000-4000-8000-000000000000.pdf';
    expect(await storage.get(key)).toBeNull();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('refuses a key it did not generate without sending anything', async () => {
    const before = s3.requests.length;
    await expect(storage.put('../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow(/storage key/);
    await expect(storage.get('icons/../../secret.png')).rejects.toThrow(/storage key/);
    expect(s3.requests.length).toBe(before);
  });
});

describe('uploads on S3 through the app (S3_* variables set)', () => {
  let s3: FakeS3;
  let t: TestApp;

  beforeAll(async () => {
    s3 = await startFakeS3(KEY_ID);
    t = await startTestApp({
      S3_BUCKET: 'app-bucket',
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: s3.url,
      S3_ACCESS_KEY_ID: KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET,
    });
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it('stores icons and documents in the bucket (not on disk), serves them back and removes them with the bot', async () => {
    const { agent } = await signedInAgent(t);
    const id = await createBotViaApi(t, agent, 'Cloud bot');
    const png = makePng(6);
    const icon = await agent
      .post(`/api/upload/icon/${id}`)
      .set('Origin', t.origin)
      .attach('icon', png, { filename: 'logo.png', contentType: 'image/png' })
      .expect(200);
    const pdf = await makePdf([['Cloud stored handbook about refunds.']]);
    const document = await agent
      .post(`/api/upload/update-document/${id}`)
      .set('Origin', t.origin)
      .attach('document', pdf, { filename: 'cloud.pdf', contentType: 'application/pdf' })
      .expect(200);

    const iconPath = new URL(icon.body.fileUrl as string).pathname;
    const documentPath = document.body.document.filePath as string;
    expect(s3.objects.get(`app-bucket${iconPath.replace('/uploads', '')}`)?.body).toEqual(png);
    expect(s3.objects.get(`app-bucket${documentPath.replace('/uploads', '')}`)?.contentType).toBe('application/pdf');
    expect(fs.existsSync(path.join(t.dataDir, 'uploads'))).toBe(false);

    const served = await t.http().get(iconPath).buffer(true).expect(200);
    expect(Buffer.compare(served.body as Buffer, png)).toBe(0);
    expect(served.headers['content-type']).toBe('image/png');
    const servedPdf = await agent.get(documentPath).buffer(true).expect(200);
    expect(Buffer.compare(servedPdf.body as Buffer, pdf)).toBe(0);

    await agent.delete(`/api/bots/${id}`).set('Origin', t.origin).expect(200);
    expect(s3.objects.size).toBe(0);
  });
});
