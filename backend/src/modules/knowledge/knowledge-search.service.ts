import type { Citation } from '@botsmith/contract';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HYBRID_RETRIEVAL, RETRIEVAL_RELEVANCE } from '../../common/constants.js';
import { boundedWebSearch } from '../../common/web-search.js';
import { cleanText } from './chunking.js';
import { EMBEDDINGS, type EmbeddingsPort } from './embeddings/embeddings.port.js';
import { PassagesRepository, type PassageMatch } from './passages.repository.js';
import { PassageVectorsRepository } from './passage-vectors.repository.js';
import { correctionName, normaliseQuestion, questionSimilarity, SAME_QUESTION_SIMILARITY } from './question-match.js';
import { reciprocalRankFusion } from './rank-fusion.js';
import { SourcesRepository, type CorrectionCandidate } from './sources.repository.js';
import { englishSynonyms, relatedWords } from './synonyms.js';
import type { Pipeline } from '../../database/pipeline.js';
import { describeError } from '../../common/error-description.js';

/** Where a passage comes from, as an answer cites it: the contract's (contract/src/chat.ts). */
export type { Citation };

export interface CitedPassage {
  page: number;
  content: string;
  citation: Citation;
  /**
   * Set on the owner's correction whose question is the visitor's question or a close variant
   * (question-match.ts): the owner's own answer, which the answer must give. Always first.
   */
  correction?: { question: string };
  /** The owner wrote it (a written answer or a correction): an answer may link to its addresses. */
  ownerWritten?: true;
}

/** The passages for an answer, and whether retrieval found anything the question is about. */
export interface AnswerPassages {
  passages: CitedPassage[];
  /**
   * The bot has usable passages, yet none found is relevant (see RETRIEVAL_RELEVANCE): the answer
   * is flagged unanswered (docs/product.md#conversations).
   */
  nothingRelevant: boolean;
  /** The addresses of the bot's website sources: the sites its answers may link to (chat/answer-links.ts). */
  sourceSites: string[];
}

/** The longest query the search looks at; a visitor's message can be long. */
const SEARCH_QUERY_MAX_CHARS = 1000;
const SEARCH_LIMIT_MAX = 20;

/**
 * Retrieval over all of a bot's sources, ranked together. PostgreSQL full-text search alone by
 * default, on the question's words and, ranked below them, their English synonyms (WordNet,
 * synonyms.ts), so "How much does it cost?" finds "Our prices start at..."; with an embeddings
 * model (OPENAI_EMBEDDING_MODEL) it is hybrid: the question's vector
 * ranks the passages by cosine too, and the two rankings are fused by reciprocal rank fusion, so
 * a question in other words than the source's still finds it, and an exact term still counts.
 * The chat module's passage port is this service.
 */
@Injectable()
export class KnowledgeSearchService implements OnModuleInit {
  private readonly logger = new Logger('KnowledgeSearch');

  constructor(
    private readonly passages: PassagesRepository,
    private readonly vectors: PassageVectorsRepository,
    private readonly sources: SourcesRepository,
    @Inject(EMBEDDINGS) private readonly embeddings: EmbeddingsPort | null,
  ) {}

  /** The WordNet files are read at boot, in the background, not by the first visitor's question. */
  onModuleInit(): void {
    void englishSynonyms().then((synonyms) => {
      if (!synonyms) this.logger.warn('WordNet files unreadable: retrieval searches the question words only.');
    });
  }

  /**
   * The passages of `botId`'s sources that best match `query` (websearch syntax, English
   * stemming), best first, each with its citation. When one of the owner's corrections answers
   * the question (its question is the same or a close variant), its whole answer comes first,
   * marked `correction`. An empty query or a bot without sources gives `[]`. `limit` is clamped
   * to 1-20.
   */
  async searchChunks(botId: number, query: string, limit = 5): Promise<CitedPassage[]> {
    const [correction, matches] = await Promise.all([
      this.correctionFor(botId, query),
      this.search(botId, query, limit),
    ]);
    return withCorrection(correction, matches, limit);
  }

  /**
   * The owner's correction that answers `question`: among the bot's corrections sharing a lexeme
   * with it, the most similar one at or above SAME_QUESTION_SIMILARITY (the newest on a tie), as
   * one passage holding its whole answer. Null when none does.
   */
  async correctionFor(botId: number, question: string): Promise<CitedPassage | null> {
    const text = correctionText(question);
    if (!text) return null;
    return this.correctionAmong(botId, text, await this.sources.correctionCandidates(botId, text));
  }

  /** `correctionFor`, given the correction candidates of `text` (its cleaned question). */
  private async correctionAmong(
    botId: number,
    text: string,
    candidates: readonly CorrectionCandidate[],
  ): Promise<CitedPassage | null> {
    const asked = normaliseQuestion(text);
    let best: { sourceId: number; question: string; similarity: number } | null = null;
    for (const candidate of candidates) {
      const similarity = questionSimilarity(
        { normalised: asked, lexemes: candidate.askedLexemes },
        { normalised: normaliseQuestion(candidate.question), lexemes: candidate.lexemes },
      );
      if (similarity >= SAME_QUESTION_SIMILARITY && (!best || similarity > best.similarity)) {
        best = { sourceId: candidate.sourceId, question: candidate.question, similarity };
      }
    }
    if (!best) return null;
    const answer = await this.passages.textOfSource(botId, best.sourceId);
    if (!answer) return null;
    return {
      page: 1,
      content: answer,
      citation: { sourceId: best.sourceId, name: correctionName(best.question), page: null, url: null },
      correction: { question: best.question },
      ownerWritten: true,
    };
  }

  /**
   * `searchChunks` (a correction first) for the chat engine, which also learns whether any passage is relevant. The
   * search ranks passages holding ANY of the question's words, so its best is not necessarily
   * about the question: a passage counts as relevant when it holds at least half of the
   * question's search terms (or their synonyms), or (with embeddings) when its vector is near enough the question's.
   * With a `pipeline`, the full-text search's statement goes with the pipeline's others (one round
   * trip: database/pipeline.ts); hybrid search, which first asks the embeddings model, does not.
   */
  async searchForAnswer(botId: number, query: string, limit = 5, pipeline?: Pipeline): Promise<AnswerPassages> {
    const text = cleanQuery(query);
    if (text && !this.embeddings) return this.fullTextForAnswer(botId, text, correctionText(query), limit, pipeline);
    const similarity = new Map<number, number>();
    const [correction, matches] = await Promise.all([
      this.correctionFor(botId, query),
      this.rank(botId, query, limit, similarity),
    ]);
    const passages = withCorrection(correction, matches, limit);
    // The owner answered this very question: nothing is more relevant. (Without search terms
    // nothing is found, so nothing is flagged either.) The bot's website addresses are read by
    // the relevance check's statement when it runs, else by a query of their own
    // (docs/decisions/0016-chat-path-cost.md).
    if (correction || !text) {
      return { passages, nothingRelevant: false, sourceSites: await this.sourceSites(botId) };
    }
    const { coverage, hasPassages, sourceSites } = await this.passages.termCoverage(
      botId,
      text,
      matches.map((match) => match.id),
      relatedWords(text, await englishSynonyms()),
    );
    return { passages, nothingRelevant: hasPassages && !anyRelevant(matches, coverage, similarity), sourceSites };
  }

  /**
   * `searchForAnswer` without embeddings: the search, its matches' coverage, the bot's facts and
   * the correction candidates are one statement; a matched correction's text is a second.
   */
  private async fullTextForAnswer(
    botId: number,
    text: string,
    asked: string,
    limit: number,
    pipeline: Pipeline | undefined,
  ): Promise<AnswerPassages> {
    const bounded = Math.min(Math.max(Math.trunc(limit) || 1, 1), SEARCH_LIMIT_MAX);
    const found = await this.passages.searchWithCoverage(
      botId,
      text,
      bounded,
      relatedWords(text, await englishSynonyms()),
      asked || null,
      pipeline,
    );
    const correction = asked ? await this.correctionAmong(botId, asked, found.correctionCandidates) : null;
    return {
      passages: withCorrection(correction, found.matches, limit),
      nothingRelevant: !correction && found.hasPassages && !anyRelevant(found.matches, found.coverage, new Map()),
      sourceSites: found.sourceSites,
    };
  }

  /** The addresses of the bot's website sources: the sites its answers may link to (chat/answer-links.ts). */
  sourceSites(botId: number): Promise<string[]> {
    return this.passages.websiteAddresses(botId);
  }

  /** The raw matches, for callers that need no citation. */
  search(botId: number, query: string, limit = 5): Promise<PassageMatch[]> {
    return this.rank(botId, query, limit, new Map());
  }

  /**
   * Full-text search alone, the question's words and their synonyms: what `search` answers without
   * an embeddings model (and the full-text half of hybrid search).
   */
  async fullText(botId: number, query: string, limit = 5): Promise<PassageMatch[]> {
    const text = cleanQuery(query);
    if (!text) return [];
    return this.fullTextOf(botId, text, Math.min(Math.max(Math.trunc(limit) || 1, 1), SEARCH_LIMIT_MAX));
  }

  private async fullTextOf(botId: number, text: string, limit: number): Promise<PassageMatch[]> {
    return this.passages.search(botId, text, limit, relatedWords(text, await englishSynonyms()));
  }

  /** The search; with embeddings, each vector candidate's similarity is written to `similarity`. */
  private rank(botId: number, query: string, limit: number, similarity: Map<number, number>): Promise<PassageMatch[]> {
    const text = cleanQuery(query);
    if (!text) return Promise.resolve([]);
    const bounded = Math.min(Math.max(Math.trunc(limit) || 1, 1), SEARCH_LIMIT_MAX);
    if (!this.embeddings) return this.fullTextOf(botId, text, bounded);
    return this.hybrid(this.embeddings, botId, text, bounded, similarity);
  }

  /**
   * Both rankings, `HYBRID_RETRIEVAL.candidates` deep, fused. When the question cannot be
   * embedded (the server is down or slow) the answer goes on with full-text search alone.
   */
  private async hybrid(
    embeddings: EmbeddingsPort,
    botId: number,
    text: string,
    limit: number,
    similarity: Map<number, number>,
  ): Promise<PassageMatch[]> {
    const depth = Math.max(HYBRID_RETRIEVAL.candidates, limit);
    const fullText = await this.fullTextOf(botId, text, depth);
    if (!(await this.vectors.botHasVectors(botId, embeddings.model))) return fullText.slice(0, limit);
    let nearest: number[];
    try {
      const [question] = await embeddings.embed([text], { purpose: 'query' });
      const near = await this.vectors.nearest(botId, embeddings.model, question, depth);
      for (const passage of near) similarity.set(passage.chunkId, passage.similarity);
      nearest = near.map((passage) => passage.chunkId);
    } catch (error) {
      this.logger.warn(`Bot ${botId}: vector search skipped, full-text only: ${describeError(error)}`);
      return fullText.slice(0, limit);
    }
    const ranked = reciprocalRankFusion([fullText.map((match) => match.id), nearest]).slice(0, limit);
    const known = new Map(fullText.map((match) => [match.id, match]));
    const missing = ranked.filter((id) => !known.has(id));
    for (const match of await this.passages.findByIds(botId, missing)) known.set(match.id, match);
    return ranked.flatMap((id) => known.get(id) ?? []);
  }
}

/** The passages with their citations, the owner's correction (if any) first and its source's passages left out. */
function withCorrection(correction: CitedPassage | null, matches: PassageMatch[], limit: number): CitedPassage[] {
  const passages = matches
    .filter((match) => match.sourceId !== correction?.citation.sourceId)
    .map((match) => ({
      page: match.page,
      content: match.content,
      citation: citationOf(match),
      ...(match.ownerWritten ? { ownerWritten: true as const } : {}),
    }));
  if (!correction) return passages;
  return [correction, ...passages].slice(0, Math.max(limit, 1));
}

/** Whether a match holds enough of the question's terms, or (with embeddings) is near enough it. */
function anyRelevant(
  matches: readonly PassageMatch[],
  coverage: ReadonlyMap<number, number>,
  similarity: ReadonlyMap<number, number>,
): boolean {
  return matches.some(
    (match) =>
      (coverage.get(match.id) ?? 0) >= RETRIEVAL_RELEVANCE.minTermCoverage ||
      (similarity.get(match.id) ?? -1) >= RETRIEVAL_RELEVANCE.minVectorSimilarity,
  );
}

/** The question as the corrections are matched against it (see correctionFor). */
function correctionText(question: string): string {
  return cleanText(String(question ?? '').slice(0, SEARCH_QUERY_MAX_CHARS));
}

/**
 * Visitor text can hold NUL and control characters, which PostgreSQL refuses in a query, and runs
 * of negations its query parser cannot stack (boundedWebSearch).
 */
function cleanQuery(query: string): string {
  return cleanText(boundedWebSearch(String(query ?? '').slice(0, SEARCH_QUERY_MAX_CHARS)));
}

export function citationOf(match: PassageMatch): Citation {
  return {
    sourceId: match.sourceId,
    name: match.sourceName,
    // Only a PDF has pages worth citing; other formats store 1 for every passage.
    page: match.format === 'pdf' ? match.page : null,
    url: match.url,
  };
}
