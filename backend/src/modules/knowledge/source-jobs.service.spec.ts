import { Readable } from 'node:stream';
import { HttpStatus } from '@nestjs/common';
import { AppError } from '../../common/app-error.js';
import type { AppConfig } from '../../config/config.js';
import type { DocumentsService } from './documents.service.js';
import type { FileStorage } from '../storage/file-storage.js';
import type { PassagesRepository } from './passages.repository.js';
import type { SourcePagesRepository } from './source-pages.repository.js';
import { SourceJobSlots } from './source-job-slots.js';
import { SourceJobsService, unreadPagesSentence } from './source-jobs.service.js';
import type { ClaimedJob, JobOutcome, SourcesRepository } from './sources.repository.js';
import type { WebsiteCrawler } from './website/website-crawler.js';
import type { Transaction, TransactionRunner } from '../../database/transaction.js';

function setup(prepare: () => Promise<unknown>) {
  const job: ClaimedJob = {
    sourceId: 7,
    botId: 3,
    ownerId: 5,
    kind: 'file',
    url: null,
    maxPages: null,
    format: 'pdf',
    storageKey: 'sources/x.pdf',
    attempts: 1,
    token: 't',
  };
  const calls = { released: 0, completed: [] as JobOutcome[] };
  let claimed = false;
  const sources = {
    waitingByOwner: () => Promise.resolve(claimed ? [] : [{ sourceId: job.sourceId, ownerId: job.ownerId }]),
    claimJob: (sourceId: number) =>
      Promise.resolve(claimed || sourceId !== job.sourceId ? null : ((claimed = true), job)),
    releaseJob: () => {
      calls.released += 1;
      return Promise.resolve();
    },
    completeJob: (_m: unknown, _j: ClaimedJob, outcome: JobOutcome) => {
      calls.completed.push(outcome);
      return Promise.resolve(true);
    },
  } as unknown as SourcesRepository;
  const passages = {
    deleteForSource: () => Promise.resolve(),
    insert: () => Promise.resolve(),
  } as unknown as PassagesRepository;
  const documents = { prepare } as unknown as DocumentsService;
  const storage = {
    get: () => Promise.resolve({ body: Readable.from([Buffer.from('%PDF-1.7')]) }),
  } as unknown as FileStorage;
  const config = { sources: { jobLeaseMs: 60_000 } } as AppConfig;
  const crawler = {} as WebsiteCrawler;
  const pages = {} as SourcePagesRepository;
  const transactions = {
    run: <T>(work: (tx: Transaction) => Promise<T>) => work({} as Transaction),
  } as TransactionRunner;
  const service = new SourceJobsService(sources, passages, transactions, pages, documents, storage, config, crawler);
  const slots = new SourceJobSlots({ crawl: 1, file: 1, perOwner: 1 });
  /** Claims the next file job and runs it: true when its outcome was written, false when none or given back. */
  const runNext = async () => {
    const claimed = await service.claimNext('file', slots);
    return claimed !== null && (await service.run(claimed)) === 'done';
  };
  return { service, runNext, calls };
}

describe('SourceJobsService', () => {
  it('gives a job back for later, without failing it, when the PDF reader is busy', async () => {
    const { runNext, calls } = setup(() =>
      Promise.reject(new AppError(HttpStatus.SERVICE_UNAVAILABLE, 'DOCUMENTS_BUSY', 'Busy.')),
    );
    expect(await runNext()).toBe(false);
    expect(calls.released).toBe(1);
    expect(calls.completed).toEqual([]);
  });

  it("fails a job with the reader's sentence when the PDF cannot be read", async () => {
    const { runNext, calls } = setup(() =>
      Promise.reject(new AppError(HttpStatus.UNPROCESSABLE_ENTITY, 'PDF_ENCRYPTED', 'This PDF is password-protected.')),
    );
    expect(await runNext()).toBe(true);
    expect(calls.released).toBe(0);
    expect(calls.completed).toEqual([
      { status: 'failed', error: 'This PDF is password-protected.', pages: null, chunks: 0 },
    ]);
  });

  it('answers false when no job is waiting', async () => {
    const { runNext } = setup(() => Promise.resolve({ pageCount: 1, chunks: [] }));
    await runNext();
    expect(await runNext()).toBe(false);
  });
});

describe('unreadPagesSentence', () => {
  const page = (path: string, reason: 'too_complex' | 'noindex' | 'duplicate' = 'too_complex') => ({
    url: `https://shop.example${path}`,
    reason,
  });

  it('names the pages that were too complex to read, and only those', () => {
    expect(unreadPagesSentence([page('/a', 'noindex'), page('/b', 'duplicate')])).toBeNull();
    expect(unreadPagesSentence([page('/huge'), page('/x', 'noindex')])).toBe(
      'This page needs too much time or memory to read, so it does not answer questions: https://shop.example/huge.',
    );
    expect(unreadPagesSentence(['/1', '/2', '/3', '/4', '/5'].map((path) => page(path)))).toBe(
      '5 pages need too much time or memory to read, so they do not answer questions: ' +
        'https://shop.example/1, https://shop.example/2, https://shop.example/3 and 2 more.',
    );
  });

  it('stays within the 500 characters a notice holds', () => {
    const long = [page(`/${'a'.repeat(2000)}`)];
    const sentence = unreadPagesSentence(long)!;
    expect(sentence).toHaveLength(500);
    expect(sentence.endsWith('…')).toBe(true);
  });
});
