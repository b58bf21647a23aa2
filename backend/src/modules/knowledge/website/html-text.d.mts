/** The readable part of an HTML page (see html-text.mjs). */
export interface ExtractedPage {
  title: string;
  text: string;
  /** Absolute URLs of the page's links, as written (not yet normalised or filtered). */
  links: string[];
  canonical: string | null;
  /** `<meta name="robots" content="noindex">`: the owner does not want this page indexed. */
  noindex: boolean;
  /** `<meta name="robots" content="nofollow">`: links are not to be followed from here. */
  nofollow: boolean;
}

/** A page's title, main text without the site's chrome, links, canonical URL and robots meta. */
export function extractPage(html: string, pageUrl: string): ExtractedPage;

/** The title and main text of an uploaded HTML file, by the same rules as a crawled page. */
export function htmlMainText(html: string): { title: string; text: string };
