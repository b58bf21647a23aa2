import { CRAWL_ROBOTS_LIMITS } from '../../../common/constants.js';

/**
 * Why a crawl could not start, as a stable code and a sentence an owner can act on. The sources
 * API answers 400 for URL_INVALID and 422 for the others, with `{ error: message, code }`.
 */
export type CrawlErrorCode =
  | 'URL_INVALID'
  | 'URL_NOT_ALLOWED'
  | 'SITE_UNREACHABLE'
  | 'ROBOTS_DISALLOWED'
  | 'ROBOTS_TOO_LARGE'
  | 'NO_READABLE_PAGES'
  | 'QUOTA_REACHED'
  | 'CRAWL_ABORTED';

export const CRAWL_ERROR_MESSAGES: Record<CrawlErrorCode, string> = {
  URL_INVALID: 'Enter a full web address starting with http:// or https://.',
  URL_NOT_ALLOWED: 'This address points to a private network and cannot be crawled.',
  SITE_UNREACHABLE: 'The website could not be reached. Check the address and try again.',
  ROBOTS_DISALLOWED: "The website's robots.txt does not allow Botsmith to read this address.",
  ROBOTS_TOO_LARGE:
    `The website's robots.txt is too long to follow (more than ${CRAWL_ROBOTS_LIMITS.maxBytes / 1024} KB, or more ` +
    `than ${CRAWL_ROBOTS_LIMITS.maxRules.toLocaleString('en-US')} rules for Botsmith), so its pages are not read. ` +
    'Shorten robots.txt and try again.',
  NO_READABLE_PAGES: 'No readable pages were found at this address.',
  QUOTA_REACHED: "This bot's sources are full: not one page of this website fits. Delete a source to make room.",
  CRAWL_ABORTED: 'The crawl was stopped before it finished.',
};

export class CrawlError extends Error {
  constructor(
    readonly code: CrawlErrorCode,
    message: string = CRAWL_ERROR_MESSAGES[code],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CrawlError';
  }

  /** 400 when the address itself is malformed, 422 when it is well-formed but cannot be crawled. */
  get status(): 400 | 422 {
    return this.code === 'URL_INVALID' ? 400 : 422;
  }
}
