import { setTimeout as sleep } from 'node:timers/promises';
import { CANNOT_ANSWER_SENTENCE } from '@botsmith/contract';
import { OFFLINE_MODEL_NAME, OFFLINE_MODEL_PREFIX } from '../../../common/constants.js';
import { englishSynonyms, type EnglishSynonyms } from '../../knowledge/synonyms.js';
import { estimateTokens, LlmError, type Grounding, type LlmPort, type LlmRequest, type LlmResult } from './llm.port.js';
import { demoActionAnswer, pickDemoAction } from './offline-demo-actions.js';
import { OFFLINE_LANGUAGE_NOTES, questionLanguage } from './question-language.js';

/**
 * The embedded model for a machine without OPENAI_API_KEY: no network, no weights. It answers
 * by retrieval — the owner's correction of the question when there is one, else the sentence of
 * the retrieved document passages (else of the house demo bot's public text) that shares the
 * most words with the question — deterministically, says that it is
 * the offline demo model, and streams word by word like a real model, reporting estimated token
 * usage. It never sees the owner's prompt, so it cannot repeat it to a visitor. Given actions, it
 * calls the one the question names (offline-demo-actions.ts) and answers with what it gave.
 */
export class OfflineDemoLlmAdapter implements LlmPort {
  readonly name = 'offline-demo';

  constructor(private readonly wordDelayMs: number) {}

  upstreamModelFor(): string {
    return OFFLINE_MODEL_NAME;
  }

  async complete(request: LlmRequest, onToken: (text: string) => void): Promise<LlmResult> {
    const action = request.tools ? pickDemoAction(request.tools.list, request.grounding.question, keywords) : null;
    const { answer, quotedPassage } =
      action && request.tools
        ? {
            answer: truncateToTokens(
              `${OFFLINE_MODEL_PREFIX}${demoActionAnswer(
                await request.tools.call({ name: action.name, arguments: JSON.stringify(action.parameters) }),
              )}`,
              request.maxTokens,
            ),
            quotedPassage: null,
          }
        : composeOfflineAnswerWithSource(request.grounding, request.maxTokens, await englishSynonyms());
    const pieces = answer.match(/\S+\s*/g) ?? [answer];
    for (const piece of pieces) {
      if (request.signal.aborted) throw new LlmError('ABORTED', 'The visitor left before the answer.');
      onToken(piece);
      if (this.wordDelayMs > 0) {
        try {
          await sleep(this.wordDelayMs, undefined, { signal: request.signal });
        } catch {
          throw new LlmError('ABORTED', 'The visitor left before the answer.');
        }
      }
    }
    return {
      text: answer,
      upstreamModel: OFFLINE_MODEL_NAME,
      quotedPassage,
      usage: {
        promptTokens: estimateTokens(request.messages.map((m) => m.content).join('\n')),
        completionTokens: estimateTokens(answer),
        estimated: true,
      },
    };
  }
}

/** Said after CANNOT_ANSWER_SENTENCE: which model answered, and why it knows so little. */
export const OFFLINE_CANNOT_ANSWER_NOTE = "(Offline demo model: I can only answer from this bot's sources.)";

const STOP_WORDS = new Set(
  (
    'the a an and or but if of to in on at by for with from as is are was were be been being do does did ' +
    'can could would should will shall may might must have has had i you he she it we they me my your our ' +
    'their this that these those what which who whom whose when where why how there here about into than ' +
    'then them its not no yes so too very just also any some all each please tell know want like get'
  ).split(' '),
);

/** Lowercased content words, crudely stemmed so "refunds" meets "refund" and "pricing" meets "price". */
export function keywords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const result = new Set<string>();
  for (const word of words) {
    if (word.length < 3 || STOP_WORDS.has(word)) continue;
    const stem = word.replace(/(ing|ed|es|s|e)$/, '');
    result.add((stem.length >= 3 ? stem : word).slice(0, 5));
  }
  return result;
}

/**
 * What the answer looks for: the question's keywords, and the keywords of their English synonyms
 * (knowledge/synonyms.ts: "cost" also finds "Pricing is..."), which count half as much.
 */
interface QueryWords {
  exact: Set<string>;
  related: Set<string>;
}

function queryWords(question: string, synonyms: EnglishSynonyms | null): QueryWords {
  const exact = keywords(question);
  const related = new Set<string>();
  if (synonyms) {
    for (const word of question.toLowerCase().match(/[a-z]+/g) ?? []) {
      if (word.length < 3 || STOP_WORDS.has(word)) continue;
      for (const synonym of keywords(synonyms.of(word).join(' '))) if (!exact.has(synonym)) related.add(synonym);
    }
  }
  return { exact, related };
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0);
}

/** Instructions to the model ("You are...", "Never...") are not facts to tell a visitor. */
const INSTRUCTION = /^(you|your|do not|don't|never|always|answer|respond|reply|be |act |keep|only|if )/i;

function overlap(query: QueryWords, sentence: string): number {
  let score = 0;
  for (const word of keywords(sentence)) {
    if (query.exact.has(word)) score += 1;
    else if (query.related.has(word)) score += 0.5;
  }
  return score;
}

function bestSentences(query: QueryWords, text: string, skipInstructions: boolean): string[] {
  let best: { score: number; index: number } = { score: 0, index: -1 };
  const list = sentences(text).filter((s) => !skipInstructions || !INSTRUCTION.test(s));
  list.forEach((sentence, index) => {
    const score = overlap(query, sentence);
    if (score > best.score) best = { score, index };
  });
  if (best.index < 0) return [];
  const picked = [list[best.index]];
  const next = list[best.index + 1];
  if (next && overlap(query, next) > 0) picked.push(next);
  return picked;
}

function truncateToTokens(text: string, maxTokens: number): string {
  const maxChars = Math.max(maxTokens, 1) * 4;
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return `${(space > OFFLINE_MODEL_PREFIX.length ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The whole deterministic answer: same inputs, same words. */
export function composeOfflineAnswer(
  grounding: Grounding,
  maxTokens: number,
  synonyms: EnglishSynonyms | null = null,
): string {
  return composeOfflineAnswerWithSource(grounding, maxTokens, synonyms).answer;
}

/** The answer and the index of the passage it quotes (null when it quotes none). */
export function composeOfflineAnswerWithSource(
  grounding: Grounding,
  maxTokens: number,
  synonyms: EnglishSynonyms | null = null,
): { answer: string; quotedPassage: number | null } {
  const { answer, quotedPassage } = composeInSourcesLanguage(grounding, maxTokens, synonyms);
  // It answers in its sources' words; a visitor writing in another of the widget's languages is
  // told so in theirs, on a line of its own (after the cannot-answer sentence, which stays as
  // written: it is how the answer is flagged unanswered).
  const language = questionLanguage(grounding.question);
  if (language === 'en') return { answer, quotedPassage };
  const note = OFFLINE_LANGUAGE_NOTES[language];
  const body = answer.endsWith(OFFLINE_CANNOT_ANSWER_NOTE)
    ? answer.slice(0, -OFFLINE_CANNOT_ANSWER_NOTE.length).trimEnd()
    : answer;
  return { answer: `${body}\n${note}`, quotedPassage };
}

function composeInSourcesLanguage(
  grounding: Grounding,
  maxTokens: number,
  synonyms: EnglishSynonyms | null,
): { answer: string; quotedPassage: number | null } {
  // The owner's correction of this question is the answer, word for word.
  const corrected = grounding.passages.findIndex((passage) => passage.correction);
  if (corrected >= 0) {
    const answer = grounding.passages[corrected].content.replace(/\s+/g, ' ').trim();
    return { answer: truncateToTokens(`${OFFLINE_MODEL_PREFIX}${answer}`, maxTokens), quotedPassage: corrected };
  }
  const query = queryWords(grounding.question, synonyms);
  let body: string | undefined;

  let bestPassage: { score: number; index: number; text: string[] } | undefined;
  grounding.passages.forEach((passage, index) => {
    const picked = bestSentences(query, passage.content, false);
    if (picked.length === 0) return;
    const score = overlap(query, picked.join(' '));
    if (!bestPassage || score > bestPassage.score) bestPassage = { score, index, text: picked };
  });
  if (bestPassage) {
    const passage = grounding.passages[bestPassage.index];
    // Passages of sources without pages (text, web pages) are cited by name in the answer's citations only.
    const page = passage.citation ? passage.citation.page : passage.page;
    body = page === null ? bestPassage.text.join(' ') : `${bestPassage.text.join(' ')} (page ${page})`;
  } else if (grounding.publicText) {
    const fromPublicText = bestSentences(query, grounding.publicText, true);
    if (fromPublicText.length > 0) body = fromPublicText.join(' ');
  }

  if (!body) {
    if (!/^\s*(hi|hello|hey|good (morning|afternoon|evening))\b/i.test(grounding.question)) {
      // The sentence a real model is told to answer with (prompt-builder.ts), first, so this
      // answer is flagged unanswered the same way; the demo marker follows it.
      return {
        answer: truncateToTokens(`${CANNOT_ANSWER_SENTENCE} ${OFFLINE_CANNOT_ANSWER_NOTE}`, maxTokens),
        quotedPassage: null,
      };
    }
    body = `Hello! I am ${grounding.botName}. Ask me a question and I will answer from the information I was given.`;
  }
  return {
    answer: truncateToTokens(`${OFFLINE_MODEL_PREFIX}${body}`, maxTokens),
    quotedPassage: bestPassage ? bestPassage.index : null,
  };
}
