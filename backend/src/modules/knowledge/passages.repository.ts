import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { Pipeline } from '../../database/pipeline.js';
import { queryPrepared } from '../../database/prepared.js';
import { entityManagerOf, type Transaction } from '../../database/transaction.js';
import type { Chunk } from './chunking.js';
import { DocumentChunkEntity } from './document-chunk.entity.js';
import type { RelatedWords } from './synonyms.js';
import type { SourceFormat } from './bot-source.entity.js';
import {
  CORRECTION_CANDIDATES,
  correctionCandidatesSql,
  toCorrectionCandidate,
  type CorrectionCandidate,
  type CorrectionCandidateRow,
} from './sources.repository.js';

/** A passage found for a question, with the source it comes from. */
export interface PassageMatch {
  /** The passage's own id (`document_chunks.id`). */
  id: number;
  sourceId: number;
  sourceName: string;
  format: SourceFormat | null;
  url: string | null;
  page: number;
  content: string;
  /** A passage of an owner's correction (ranked above other passages). */
  isCorrection: boolean;
  /** The owner wrote it (a written answer or a correction): the addresses in it are theirs. */
  ownerWritten: boolean;
}

/** A passage to store: a chunk of text, and for a website the page it comes from. */
export interface NewPassage extends Chunk {
  pageUrl?: string | null;
  pageTitle?: string | null;
}

/** A passage and its source, as a query reads them (`c` the passage, `s` its source). */
const PASSAGE_COLUMNS = `c.id, c.source_id, COALESCE(NULLIF(c.page_title, ''), s.name) AS name, s.format,
       COALESCE(c.page_url, s.url) AS url, c.page, c.content, s.is_correction, s.kind = 'text' AS owner_written`;

interface PassageRow {
  id: number;
  source_id: number;
  name: string;
  format: SourceFormat | null;
  url: string | null;
  page: number;
  content: string;
  is_correction: boolean;
  owner_written: boolean;
}

function toMatch(row: PassageRow): PassageMatch {
  return {
    id: row.id,
    sourceId: row.source_id,
    sourceName: row.name,
    format: row.format,
    url: row.url,
    page: row.page,
    content: row.content,
    isCorrection: row.is_correction,
    ownerWritten: row.owner_written,
  };
}

/** `search`'s matches with what the chat answer's relevance check needs of them (`termCoverage`). */
export interface SearchWithCoverage {
  matches: PassageMatch[];
  coverage: Map<number, number>;
  hasPassages: boolean;
  sourceSites: string[];
  /** `SourcesRepository.correctionCandidates` of the correction question given, in its order. */
  correctionCandidates: CorrectionCandidate[];
}

/*
 * The statements' parts, shared so that `search`, `termCoverage` and `searchWithCoverage` (both
 * in one) cannot drift apart. Parameters: $1 the bot, $2 the query, $4 and $5 the related words
 * (relatedParams).
 */

/** The search's query, its terms and synonym groups weighted by rarity, and what a match holds. */
const SEARCH_CTES = `q AS (
         SELECT websearch_to_tsquery('english', $2) AS strict,
                replace(websearch_to_tsquery('english', $2)::text, ' & ', ' | ')::tsquery AS loose
       ),
       total AS MATERIALIZED (SELECT count(*)::float8 AS n FROM document_chunks WHERE bot_id = $1),
       terms AS MATERIALIZED (
         SELECT t.term, ln(1 + (total.n + 1) / (1 + (SELECT count(*) FROM document_chunks d
                                                        WHERE d.bot_id = $1 AND d.search_vector @@ t.term))) AS weight
           FROM (SELECT plainto_tsquery('simple', l) AS term
                   FROM unnest(tsvector_to_array(to_tsvector('english', $2))) l) t, total
       ),
       groups AS MATERIALIZED (
         SELECT g.word, g.synonyms, ln(1 + (total.n + 1) / (1 + (SELECT count(*) FROM document_chunks d
                                                        WHERE d.bot_id = $1 AND d.search_vector @@ g.word))) AS weight
           FROM (SELECT plainto_tsquery('english', w) AS word,
                        replace(plainto_tsquery('english', s)::text, ' & ', ' | ')::tsquery AS synonyms
                   FROM unnest($4::text[], $5::text[]) AS r(w, s)) g, total
          WHERE numnode(g.word) > 0 AND numnode(g.synonyms) > 0
       ),
       wanted AS (
         SELECT q.loose || COALESCE((SELECT string_agg(g.synonyms::text, ' | ') FROM groups g)::tsquery, ''::tsquery) AS any
           FROM q
       )`;

/**
 * `searchWithCoverage`'s text, built on first use and then the same string: the chat path's
 * prepared statement is looked up by its text with every message (database/prepared.ts).
 */
let searchWithCoverageSql: string | undefined;

/** A passage `c` of source `s` the search finds (with `SEARCH_CTES`). */
const SEARCH_MATCHES = `c.bot_id = $1 AND s.status <> 'failed' AND c.search_vector @@ wanted.any`;

/** The search's ranking, best first (see `search`). */
const SEARCH_ORDER = `(c.search_vector @@ q.strict) DESC, s.is_correction DESC,
                 (SELECT COALESCE(sum(t.weight), 0) FROM terms t WHERE c.search_vector @@ t.term) DESC,
                 ts_rank(c.search_vector, q.loose) DESC,
                 (SELECT COALESCE(sum(g.weight), 0) FROM groups g
                   WHERE c.search_vector @@ g.synonyms AND NOT c.search_vector @@ g.word) DESC,
                 c.source_id ASC, c.ordinal ASC`;

/** The question's search terms, and its words' synonyms, as lexeme arrays (for `COVERAGE`). */
const COVERAGE_CTES = `coverage_terms AS (SELECT tsvector_to_array(to_tsvector('english', $2)) AS lexemes),
       coverage_groups AS (
         SELECT tsvector_to_array(to_tsvector('english', r.w)) AS word,
                tsvector_to_array(to_tsvector('english', r.s)) AS synonyms
           FROM unnest($4::text[], $5::text[]) AS r(w, s)
       )`;

/** The share of the question's terms passage `c` holds (with `COVERAGE_CTES`, `coverage_terms` in FROM). */
const COVERAGE = `(SELECT count(*) FROM unnest(coverage_terms.lexemes) l
                WHERE l = ANY(tsvector_to_array(c.search_vector))
                   OR EXISTS (SELECT 1 FROM coverage_groups g
                               WHERE l = ANY(g.word) AND g.synonyms && tsvector_to_array(c.search_vector)))::float8
                / GREATEST(cardinality(coverage_terms.lexemes), 1)`;

/** The bot's website addresses ($1 the bot). */
const WEBSITE_ADDRESSES = `SELECT DISTINCT url FROM bot_sources WHERE bot_id = $1 AND kind = 'website' AND url IS NOT NULL`;

/** Whether the bot has a usable passage, and its website addresses ($1 the bot). */
const BOT_FACTS = `EXISTS (SELECT 1 FROM document_chunks a JOIN bot_sources s ON s.id = a.source_id
                       WHERE a.bot_id = $1 AND s.status <> 'failed') AS has_passages,
              ARRAY(${WEBSITE_ADDRESSES}) AS sites`;

/** The related words as the statements' $4 (words) and $5 (their synonyms, space-separated). */
function relatedParams(related: readonly RelatedWords[]): [string[], string[]] {
  return [related.map((r) => r.word), related.map((r) => r.synonyms.join(' '))];
}

/** 8 parameters a row; PostgreSQL allows 65535 per statement. */
const PASSAGE_INSERT_BATCH = 1000;

/** The only place that queries `document_chunks`: the passages of every source. */
@Injectable()
export class PassagesRepository {
  constructor(@InjectRepository(DocumentChunkEntity) private readonly passages: Repository<DocumentChunkEntity>) {}

  /** Stores a source's passages inside the caller's transaction. */
  async insert(
    tx: Transaction,
    owner: { sourceId: number; botId: number; documentId?: number | null },
    chunks: readonly NewPassage[],
  ): Promise<void> {
    const manager = entityManagerOf(tx);
    for (let start = 0; start < chunks.length; start += PASSAGE_INSERT_BATCH) {
      const batch = chunks.slice(start, start + PASSAGE_INSERT_BATCH).map((chunk) => ({
        sourceId: owner.sourceId,
        documentId: owner.documentId ?? null,
        botId: owner.botId,
        page: chunk.page,
        ordinal: chunk.ordinal,
        content: chunk.content,
        pageUrl: chunk.pageUrl ?? null,
        pageTitle: chunk.pageTitle ?? null,
      }));
      await manager.createQueryBuilder().insert().into(DocumentChunkEntity).values(batch).execute();
    }
  }

  async deleteForSource(tx: Transaction, sourceId: number): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.getRepository(DocumentChunkEntity).delete({ sourceId });
  }

  /** Removes the passages of one page of a website source. */
  async deleteForPage(tx: Transaction, sourceId: number, pageUrl: string): Promise<void> {
    const manager = entityManagerOf(tx);
    await manager.query('DELETE FROM document_chunks WHERE source_id = $1 AND page_url = $2', [sourceId, pageUrl]);
  }

  /** The ordinal after the source's last passage (new pages' passages go after the kept ones). */
  async nextOrdinal(tx: Transaction, sourceId: number): Promise<number> {
    const manager = entityManagerOf(tx);
    const [row]: { next: number }[] = await manager.query(
      'SELECT COALESCE(MAX(ordinal) + 1, 0)::int AS next FROM document_chunks WHERE source_id = $1',
      [sourceId],
    );
    return row?.next ?? 0;
  }

  /**
   * Full-text search over the passages of every usable source of one bot, ranked together. A
   * website's passage is named after its page (title and address), others after their source.
   * Passages holding every term of the query come first; passages holding only some still match
   * (a visitor's question has words the sources lack); among passages that match as well, the
   * owner's corrections come first. Then a passage ranks by the terms it holds, each weighted by
   * how rare it is among the bot's passages (inverse document frequency: "birthday" says more
   * than "get"), then by ts_rank, then in source order.
   * `related` holds synonyms of the question's words (knowledge/synonyms.ts): a passage holding
   * only synonyms of a word matches too, and ranks below every passage holding more of the
   * question's own words; among passages equal on those, synonyms (weighted by their word's
   * rarity) decide.
   * A source being re-read keeps answering from its previous passages until the new ones land;
   * a failed source has none.
   */
  async search(
    botId: number,
    query: string,
    limit: number,
    related: readonly RelatedWords[] = [],
  ): Promise<PassageMatch[]> {
    const rows: PassageRow[] = await this.passages.query(
      `WITH ${SEARCH_CTES}
       SELECT ${PASSAGE_COLUMNS}
         FROM document_chunks c
         JOIN bot_sources s ON s.id = c.source_id, q, wanted
        WHERE ${SEARCH_MATCHES}
        ORDER BY ${SEARCH_ORDER}
        LIMIT $3`,
      [botId, query, limit, ...relatedParams(related)],
    );
    return rows.map(toMatch);
  }

  /**
   * `search` and `termCoverage` of its matches in one statement, the chat answer's retrieval
   * without embeddings (docs/decisions/0016-chat-path-cost.md): the matches in `search`'s order,
   * each with its coverage, whether the bot has usable passages, its website addresses and, when
   * `correctionQuestion` is given, `SourcesRepository.correctionCandidates` of it.
   */
  async searchWithCoverage(
    botId: number,
    query: string,
    limit: number,
    related: readonly RelatedWords[],
    correctionQuestion: string | null,
    pipeline?: Pipeline,
  ): Promise<SearchWithCoverage> {
    // The matches are joined to the one row of the bot's facts, so that a search without matches
    // still answers them. The candidates come from their own ordered query, aggregated with
    // nothing else in their query level, which keeps their order (PostgreSQL's aggregate docs).
    const rows: Array<
      { [K in keyof PassageRow]: PassageRow[K] | null } & {
        coverage: number | null;
        has_passages: boolean;
        sites: string[];
        corrections: CorrectionCandidateRow[] | null;
      }
    > = await queryPrepared(
      this.passages.manager.connection,
      (searchWithCoverageSql ??= `WITH ${SEARCH_CTES}, ${COVERAGE_CTES},
       facts AS (
         SELECT ${BOT_FACTS},
                CASE WHEN $6::text IS NOT NULL THEN
                  (SELECT json_agg(k) FROM (${correctionCandidatesSql({ bot: '$1', question: '$6', limit: '$7' })}) k)
                END AS corrections
       )
       SELECT ${PASSAGE_COLUMNS}, ${COVERAGE} AS coverage, facts.*
         FROM q CROSS JOIN wanted CROSS JOIN coverage_terms CROSS JOIN facts
         LEFT JOIN (document_chunks c JOIN bot_sources s ON s.id = c.source_id) ON ${SEARCH_MATCHES}
        ORDER BY ${SEARCH_ORDER}
        LIMIT $3`),
      [botId, query, limit, ...relatedParams(related), correctionQuestion, CORRECTION_CANDIDATES],
      pipeline,
    );
    const matches: PassageMatch[] = [];
    const coverage = new Map<number, number>();
    for (const row of rows) {
      if (row.id === null) continue;
      const match = toMatch(row as PassageRow);
      matches.push(match);
      coverage.set(match.id, Number(row.coverage));
    }
    const [facts] = rows;
    return {
      matches,
      coverage,
      hasPassages: facts?.has_passages === true,
      sourceSites: facts?.sites ?? [],
      correctionCandidates: (facts?.corrections ?? []).map(toCorrectionCandidate),
    };
  }

  /** The addresses of the bot's website sources (the sites its answers may link to). */
  async websiteAddresses(botId: number): Promise<string[]> {
    const rows: Array<{ url: string }> = await this.passages.query(WEBSITE_ADDRESSES, [botId]);
    return rows.map((row) => row.url);
  }

  /** The bot's passages with these ids, of usable sources, in no particular order. */
  async findByIds(botId: number, ids: readonly number[]): Promise<PassageMatch[]> {
    if (ids.length === 0) return [];
    const rows: PassageRow[] = await this.passages.query(
      `SELECT ${PASSAGE_COLUMNS}
         FROM document_chunks c
         JOIN bot_sources s ON s.id = c.source_id
        WHERE c.bot_id = $1 AND c.id = ANY($2::int[]) AND s.status <> 'failed'`,
      [botId, ids],
    );
    return rows.map(toMatch);
  }

  /**
   * The whole text of one of the bot's sources: its passages in order, joined by spaces (which
   * gives back the cleaned text it was chunked from, see chunkPages).
   */
  async textOfSource(botId: number, sourceId: number): Promise<string> {
    const [row]: { text: string | null }[] = await this.passages.query(
      `SELECT string_agg(content, ' ' ORDER BY ordinal) AS text FROM document_chunks WHERE bot_id = $1 AND source_id = $2`,
      [botId, sourceId],
    );
    return row?.text ?? '';
  }

  /**
   * How much of `query` each of these passages holds: the share (0..1) of the question's distinct
   * search terms (English stems, stop words dropped: the same analysis as the search) found among
   * the passage's own terms; a term also counts as held when the passage holds one of its word's
   * synonyms (`related`, as given to `search`). `hasPassages` says whether the bot has any usable
   * passage at all; `sourceSites` is `websiteAddresses`, read by the same statement so that a
   * chat answer's retrieval makes no round trip for it (docs/decisions/0016-chat-path-cost.md).
   */
  async termCoverage(
    botId: number,
    query: string,
    ids: readonly number[],
    related: readonly RelatedWords[] = [],
  ): Promise<{ coverage: Map<number, number>; hasPassages: boolean; sourceSites: string[] }> {
    const rows: Array<{ id: number | null; coverage: number | null; has_passages: boolean; sites: string[] }> =
      await this.passages.query(
        `WITH ${COVERAGE_CTES}
         SELECT c.id, ${COVERAGE} AS coverage, ${BOT_FACTS}
           FROM coverage_terms LEFT JOIN document_chunks c ON c.bot_id = $1 AND c.id = ANY($3::int[])`,
        [botId, query, ids, ...relatedParams(related)],
      );
    const coverage = new Map<number, number>();
    for (const row of rows) if (row.id !== null) coverage.set(Number(row.id), Number(row.coverage));
    return { coverage, hasPassages: rows[0]?.has_passages === true, sourceSites: rows[0]?.sites ?? [] };
  }

  countForBot(botId: number): Promise<number> {
    return this.passages.countBy({ botId });
  }
}
