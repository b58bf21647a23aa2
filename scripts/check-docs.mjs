#!/usr/bin/env node
/**
 * Keeps the repository's promises about its own documentation (a step of `npm test`):
 * - every link into docs/ (`docs/product.md#quotas` in a comment, `[x](product.md#quotas)` inside
 *   docs/) names a file that exists and, when it has an anchor, a heading of that file;
 * - nothing cites what a newcomer with only the repository cannot read (the product brief or the
 *   design notes outside it): cite docs/ instead.
 * Prints each broken link or citation with its file and line, and exits 1 if there is any.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TEXT = /\.(?:[cm]?[jt]sx?|md|json|ya?ml|conf|html|css|sh)$|(?:^|\/)(?:Dockerfile[^/]*|run)$/;
const SKIP = /(?:^|\/)(?:package-lock\.json|[^/]*\.generated\.ts)$/;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorsOf = new Map();
function anchors(file) {
  if (!anchorsOf.has(file)) {
    const found = new Set();
    const counts = new Map();
    let fenced = false;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (line.startsWith('```')) fenced = !fenced;
      const heading = !fenced && line.match(/^#{1,6}\s+(.+?)\s*#*$/);
      if (!heading) continue;
      const base = slug(heading[1]);
      const seen = counts.get(base) ?? 0;
      counts.set(base, seen + 1);
      found.add(seen === 0 ? base : `${base}-${seen}`);
    }
    anchorsOf.set(file, found);
  }
  return anchorsOf.get(file);
}

const problems = [];
function checkLink(source, lineNo, target, anchor) {
  const where = `${source}:${lineNo}`;
  if (!fs.existsSync(target)) {
    problems.push(`${where}: ${path.relative(root, target)} does not exist`);
  } else if (anchor && target.endsWith('.md') && !anchors(target).has(anchor)) {
    problems.push(`${where}: ${path.relative(root, target)}#${anchor} names no heading`);
  }
}

const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && TEXT.test(file) && !SKIP.test(file));

for (const file of files) {
  const absolute = path.join(root, file);
  if (!fs.existsSync(absolute)) continue;
  const inDocs = file.startsWith('docs/');
  fs.readFileSync(absolute, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      const lineNo = index + 1;
      for (const [, doc, anchor] of line.matchAll(/\bdocs\/([\w./-]+?\.md)(?:#([\w-]+))?/g)) {
        checkLink(file, lineNo, path.join(root, 'docs', doc), anchor);
      }
      if (inDocs) {
        for (const [, target, anchor] of line.matchAll(/\]\(([^)\s#]*\.md)?#([\w-]+)\)/g)) {
          checkLink(file, lineNo, target ? path.resolve(path.dirname(absolute), target) : absolute, anchor);
        }
      }
      if (/\bthe\s+brief\b|\bbrief\W?s\b|\.\.\/shared\//i.test(line) && !/\bcheck-docs\b/.test(file)) {
        problems.push(
          `${file}:${lineNo}: cites what is not in the repository (the product brief outside it, or ../shared): cite docs/`,
        );
      }
    });
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} problem(s) with links into docs/ or citations.`);
  process.exit(1);
}
console.log(`Links into docs/ checked in ${files.length} files: every one names a file and a heading that exist.`);
