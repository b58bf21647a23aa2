/** robots.txt as read for one crawler (see robots.mjs). */

/** One Allow or Disallow line, compiled: its literal pieces between `*` wildcards. */
export interface RobotsRule {
  allow: boolean;
  /** The pattern's length (longest wins). */
  length: number;
  pieces: string[];
  /** The pattern ended in `$`: it must match up to the URL's end. */
  anchored: boolean;
}

export interface RobotsRules {
  /** The group that applies held more than `maxRules` rules: nothing else is read. */
  tooManyRules: boolean;
  /** The rules of the group that names us (else of `*`), in order of precedence. */
  rules: RobotsRule[];
  /** Crawl-delay in seconds, when the group gives one. */
  crawlDelay: number | null;
  /** The sitemap URLs the file names, as written (at most 100). */
  sitemaps: string[];
}

/** robots.txt's bytes read for `productToken` (our user agent's name, before "/"). */
export function readRobots(bytes: Uint8Array, productToken: string, maxRules: number): RobotsRules;

/** The same from the file's text. */
export function parseRobots(text: string, productToken: string, maxRules?: number): RobotsRules;

/** Whether one rule matches `path` (a URL's path and query, percent-encoded). */
export function ruleMatches(rule: RobotsRule, path: string): boolean;

/** Whether the rules let us fetch the URL whose path and query are `path`. */
export function robotsAllow(robots: Pick<RobotsRules, 'rules'>, path: string): boolean;
