import { h, type ComponentChild } from 'preact';

/**
 * A small, safe Markdown renderer for model replies (untrusted input, OWASP LLM05).
 *
 * It builds Preact vnodes directly: every piece of the source becomes a text node or one of a
 * fixed set of elements (p, br, strong, em, del, code, pre, ul, ol, li, a), so raw HTML in a reply
 * is shown as text and no HTML parser (and no innerHTML) is ever involved. Links keep only
 * http(s) and mailto URLs, as parsed by the browser's URL parser, and open in a new tab with
 * `rel="noopener noreferrer nofollow"`. Images are never loaded (`![alt](url)` becomes a link),
 * which also closes the image-beacon exfiltration channel.
 *
 * Supported: paragraphs and line breaks, headings (shown bold), bold, italic, strikethrough,
 * inline code, fenced code blocks, ordered and unordered lists (nested by indentation), links,
 * autolinks and bare URLs, backslash escapes. Unclosed syntax (common mid-stream) stays literal.
 */

/** The href to use for `raw`, or null when its scheme is not http, https or mailto. */
export function safeHref(raw: string): string | null {
  try {
    const u = new URL(raw);
    return /^(https?|mailto):$/.test(u.protocol) ? u.href : null;
  } catch {
    return null;
  }
}

const link = (href: string, children: ComponentChild): ComponentChild =>
  h('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow' }, children);

// One alternation, tried left to right at each position. Groups:
// 1 escaped char | 2 code | 3 **bold** | 4 __bold__ | 5 *em* | 6 _em_ | 7 ~~del~~ |
// 8,9 [label](url) | 10 <autolink> | 11 bare URL
const INLINE =
  /\\([\\`*_{}[\]()#+\-.!~>|])|`([^`\n]+)`|\*\*(\S(?:[\s\S]*?\S)?)\*\*|__(\S(?:[\s\S]*?\S)?)__|\*(\S(?:[^*]*?\S)?)\*|_(\S(?:[^_]*?\S)?)_(?![\w])|~~(\S(?:[\s\S]*?\S)?)~~|\[([^[\]]*)\]\(\s*([^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+"[^"]*")?\s*\)|<((?:https?:\/\/|mailto:)[^\s<>]+)>|(https?:\/\/[^\s<>"]*[^\s<>".,;:!?'")\]*_])/g;

/** Inline Markdown to vnodes and strings (strings become text nodes). */
export function inline(src: string): ComponentChild[] {
  const out: ComponentChild[] = [];
  const re = new RegExp(INLINE.source, 'g');
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(src))) {
    const at = m.index;
    // `_` emphasis only at word boundaries, so snake_case_names stay as they are.
    if (m[6] != null && at > 0 && /\w/.test(src[at - 1])) {
      re.lastIndex = at + 1;
      continue;
    }
    if (at > last) out.push(src.slice(last, at));
    last = re.lastIndex;
    let node: ComponentChild;
    if (m[1] != null) node = m[1];
    else if (m[2] != null) node = h('code', null, m[2]);
    else if (m[3] != null || m[4] != null) node = h('strong', null, inline(m[3] ?? m[4]));
    else if (m[5] != null || m[6] != null) node = h('em', null, inline(m[5] ?? m[6]));
    else if (m[7] != null) node = h('del', null, inline(m[7]));
    else if (m[8] != null) {
      const href = safeHref(m[9]);
      const label = inline(m[8]);
      // An unsafe link keeps its visible text and loses its target.
      node = href ? link(href, label.length ? label : href) : h('span', null, label);
    } else {
      const raw = m[10] ?? m[11];
      const href = safeHref(raw);
      node = href ? link(href, raw) : raw;
    }
    out.push(node);
  }
  if (last < src.length) out.push(src.slice(last));
  return out;
}

interface ListItem {
  text: string;
  sub: List[];
}
interface List {
  ordered: boolean;
  start: number;
  indent: number;
  items: ListItem[];
}

function renderList(list: List): ComponentChild {
  return h(
    list.ordered ? 'ol' : 'ul',
    list.ordered && list.start != 1 ? { start: list.start } : null,
    list.items.map((it) => h('li', null, [...inline(it.text), ...it.sub.map(renderList)])),
  );
}

/** A whole message to block-level vnodes. */
export function renderMarkdown(src: string): ComponentChild[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out: ComponentChild[] = [];
  let para: string[] = [];
  let stack: List[] = [];

  const flushPara = (): void => {
    if (!para.length) return;
    const children: ComponentChild[] = [];
    para.forEach((l, i) => {
      if (i) children.push(h('br', null));
      children.push(...inline(l));
    });
    out.push(h('p', null, children));
    para = [];
  };
  const flushList = (): void => {
    if (stack[0]) out.push(renderList(stack[0]));
    stack = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      flushPara();
      flushList();
      const code: string[] = [];
      while (++i < lines.length && !lines[i].trim().startsWith(fence[1])) code.push(lines[i]);
      out.push(h('pre', null, h('code', null, code.join('\n'))));
      continue;
    }
    const item = /^(\s*)(?:[-*+]|(\d{1,9})[.)])\s+(.*)$/.exec(line);
    if (item) {
      flushPara();
      const indent = item[1].replace(/\t/g, '    ').length;
      const entry: ListItem = { text: item[3], sub: [] };
      // The list this item opens, if it opens one (a first item, or one indented under the last).
      const opened: List = { ordered: !!item[2], start: +(item[2] ?? 1), indent, items: [] };
      while (stack.length > 1 && indent < stack[stack.length - 1].indent) stack.pop();
      let top = stack[stack.length - 1];
      if (top && indent >= top.indent + 2 && top.items.length) {
        top.items[top.items.length - 1].sub.push(opened);
        stack.push((top = opened));
      }
      if (!top) stack.push((top = opened));
      top.items.push(entry);
      continue;
    }
    if (!line.trim()) {
      flushPara();
      flushList();
      continue;
    }
    const top = stack[stack.length - 1];
    if (top && /^\s{2,}\S/.test(line)) {
      // A wrapped line of the last list item.
      top.items[top.items.length - 1].text += ' ' + line.trim();
      continue;
    }
    flushList();
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flushPara();
      out.push(h('p', null, h('strong', null, inline(heading[1]))));
      continue;
    }
    para.push(line);
  }
  flushPara();
  flushList();
  return out;
}
