import { CORRECTION_LIMITS, type UnansweredQuestion } from '@botsmith/contract';
import {
  isSameQuestion,
  normaliseQuestion,
  questionSimilarity,
  SAME_QUESTION_SIMILARITY,
  type ComparableQuestion,
} from '../knowledge/question-match.js';

/** A visitor question as grouped: what they wrote, its lexemes, when, and in which conversation. */
export interface QuestionRow {
  text: string;
  lexemes: readonly string[];
  askedAt: Date;
  conversationId: number;
}

/** A correction as the report checks questions against it. */
export interface CorrectionRow {
  question: string;
  lexemes: readonly string[];
  createdAt: Date;
}

/** Bounds of the grouping: each answer lists this many conversations at most, and so many groups. */
export const QUESTION_GROUPS = {
  conversationIdsMax: 20,
  questionsMax: 100,
  /** Groups compared with one question at most (those sharing the most lexemes with it come first). */
  candidatesMax: 50,
} as const;

interface Group {
  representative: ComparableQuestion;
  rows: QuestionRow[];
}

/**
 * Similar questions grouped (docs/product.md#unanswered-questions), most asked first: first by
 * the same set of lexemes (by normalised text for questions without any), then each variant joins the most similar
 * bigger group at or above SAME_QUESTION_SIMILARITY (the bigger groups are formed first, so a
 * variant joins the question most visitors asked). Each group is shown with the wording most
 * asked in it (its latest spelling), its count, when it was last asked and its conversations
 * (latest first, at most QUESTION_GROUPS.conversationIdsMax).
 */
export function groupQuestions(rows: readonly QuestionRow[]): Array<Omit<UnansweredQuestion, 'fixed'>> {
  return formGroups(rows)
    .map((group) => describe(group.rows))
    .sort((a, b) => b.count - a.count || Date.parse(b.lastAskedAt) - Date.parse(a.lastAskedAt))
    .slice(0, QUESTION_GROUPS.questionsMax);
}

/**
 * The same groups with every question in them (none cut), most asked first, each shown by its
 * most asked wording: the topics of the owner's analytics (docs/product.md#analytics).
 */
export function questionTopics(rows: readonly QuestionRow[]): Array<{ text: string; rows: QuestionRow[] }> {
  return formGroups(rows)
    .map((group) => ({ text: describe(group.rows).text, rows: group.rows, latest: latest(group.rows) }))
    .sort((a, b) => b.rows.length - a.rows.length || b.latest - a.latest)
    .map(({ text, rows: grouped }) => ({ text, rows: grouped }));
}

function formGroups(rows: readonly QuestionRow[]): Group[] {
  // 1. Same normalised text, or the same (non-empty) set of lexemes.
  const byKey = new Map<string, QuestionRow[]>();
  for (const row of rows) {
    const key = groupKey(row);
    const list = byKey.get(key);
    if (list) list.push(row);
    else byKey.set(key, [row]);
  }
  const variants = [...byKey.values()]
    .map((variantRows) => ({ rows: variantRows, latest: latest(variantRows) }))
    .sort((a, b) => b.rows.length - a.rows.length || b.latest - a.latest)
    .map((variant) => variant.rows);

  // 2. Each variant joins the most similar group formed so far, found through the lexemes they share.
  const groups: Group[] = [];
  const groupsByLexeme = new Map<string, number[]>();
  for (const variant of variants) {
    const representative = comparable(variant[0]);
    const shared = new Map<number, number>();
    for (const lexeme of new Set(representative.lexemes)) {
      for (const index of groupsByLexeme.get(lexeme) ?? []) shared.set(index, (shared.get(index) ?? 0) + 1);
    }
    const candidates = [...shared.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, QUESTION_GROUPS.candidatesMax);
    let best: { index: number; similarity: number } | null = null;
    for (const [index] of candidates) {
      const similarity = questionSimilarity(representative, groups[index].representative);
      if (similarity >= SAME_QUESTION_SIMILARITY && (!best || similarity > best.similarity))
        best = { index, similarity };
    }
    if (best) {
      groups[best.index].rows.push(...variant);
      continue;
    }
    groups.push({ representative, rows: [...variant] });
    for (const lexeme of new Set(representative.lexemes)) {
      const list = groupsByLexeme.get(lexeme);
      if (list) list.push(groups.length - 1);
      else groupsByLexeme.set(lexeme, [groups.length - 1]);
    }
  }

  return groups;
}

/**
 * The questions a correction now answers: asked before the correction was written, and the
 * same question as its own (or a close variant). Answers given after it were given with it.
 */
export function withoutCorrected(rows: readonly QuestionRow[], corrections: readonly CorrectionRow[]): QuestionRow[] {
  if (corrections.length === 0) return [...rows];
  const byLexeme = new Map<string, CorrectionRow[]>();
  const byText = new Map<string, CorrectionRow[]>();
  const add = (map: Map<string, CorrectionRow[]>, key: string, correction: CorrectionRow) => {
    const list = map.get(key);
    if (list) list.push(correction);
    else map.set(key, [correction]);
  };
  const comparableCorrections = new Map<CorrectionRow, ComparableQuestion>();
  for (const correction of corrections) {
    const question = { normalised: normaliseQuestion(correction.question), lexemes: correction.lexemes };
    comparableCorrections.set(correction, question);
    add(byText, question.normalised, correction);
    for (const lexeme of new Set(correction.lexemes)) add(byLexeme, lexeme, correction);
  }
  return rows.filter((row) => {
    const asked = comparable(row);
    const candidates = new Set([
      ...(byText.get(asked.normalised) ?? []),
      ...asked.lexemes.flatMap((lexeme) => byLexeme.get(lexeme) ?? []),
    ]);
    for (const correction of candidates) {
      if (correction.createdAt > row.askedAt && isSameQuestion(asked, comparableCorrections.get(correction)!)) {
        return false;
      }
    }
    return true;
  });
}

function comparable(row: QuestionRow): ComparableQuestion {
  return { normalised: normaliseQuestion(row.text), lexemes: row.lexemes };
}

function groupKey(row: QuestionRow): string {
  if (row.lexemes.length > 0) return `lexemes:${[...new Set(row.lexemes)].sort().join(' ')}`;
  const normalised = normaliseQuestion(row.text);
  return `text:${normalised || row.text.trim().toLowerCase()}`;
}

function latest(rows: readonly QuestionRow[]): number {
  let at = -Infinity;
  for (const row of rows) at = Math.max(at, row.askedAt.getTime());
  return at;
}

function describe(grouped: readonly QuestionRow[]): Omit<UnansweredQuestion, 'fixed'> {
  const rows = [...grouped].sort((a, b) => b.askedAt.getTime() - a.askedAt.getTime());
  const wordings = new Map<string, { count: number; text: string }>();
  for (const row of rows) {
    const key = normaliseQuestion(row.text) || row.text.trim();
    const wording = wordings.get(key);
    if (wording) wording.count += 1;
    else wordings.set(key, { count: 1, text: row.text.trim() });
  }
  let shown = { count: 0, text: '' };
  for (const wording of wordings.values()) if (wording.count > shown.count) shown = wording;
  const conversationIds: number[] = [];
  for (const row of rows) {
    if (conversationIds.length >= QUESTION_GROUPS.conversationIdsMax) break;
    if (!conversationIds.includes(row.conversationId)) conversationIds.push(row.conversationId);
  }
  return {
    // The dashboard prefills a correction with it: it must fit a correction's question.
    text: shown.text.slice(0, CORRECTION_LIMITS.questionMaxChars),
    count: rows.length,
    lastAskedAt: rows[0].askedAt.toISOString(),
    conversationIds,
  };
}
