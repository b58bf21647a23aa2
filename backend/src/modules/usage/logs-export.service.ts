import type { Writable } from 'node:stream';
import { Injectable, type Logger } from '@nestjs/common';
import type { Response } from 'express';
import type ExcelJS from 'exceljs';
import { LOGS_EXPORT_BATCH_ROWS, XLSX_CELL_MAX_CHARS } from '../../common/constants.js';
import { UsageClock } from './usage-clock.js';
import { UsageRepository, type LogCursor, type LogRow } from './usage.repository.js';
import { describeErrorWithStack } from '../../common/error-description.js';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The sheets and columns of the export; the tests read the file back by these names. */
export const LOG_SHEET = 'Logs';
export const SUMMARY_SHEET = 'Summary';
export const LOG_COLUMNS = [
  'Time (UTC)',
  'Bot',
  'Conversation ID',
  'Role',
  'Content',
  'Model',
  'Tokens',
  'Cost ($)',
] as const;
export const SUMMARY_COLUMNS = ['Bot', 'Messages', 'Tokens', 'Cost ($)'] as const;
export const SUMMARY_TOTAL_LABEL = 'Total';

/** `user_logs_{YYYY-MM-DD}_{HH-mm-ss}.xlsx`, UTC (docs/product.md#usage-figures). */
export function logsFileName(now: Date): string {
  const iso = now.toISOString();
  return `user_logs_${iso.slice(0, 10)}_${iso.slice(11, 19).replaceAll(':', '-')}.xlsx`;
}

/**
 * Characters XML 1.0 cannot carry (control characters other than tab, LF and CR, lone surrogates,
 * U+FFFE/U+FFFF) would make the whole file unreadable: a visitor can type anything.
 */
const XML_ILLEGAL =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text a cell can hold: XML-safe and within Excel's 32,767-character cell limit. */
export function cellText(value: string): string {
  const clean = value.replace(XML_ILLEGAL, '\uFFFD');
  if (clean.length <= XML_CELL_LIMIT) return clean;
  const marker = '… [truncated]';
  return clean.slice(0, XML_CELL_LIMIT - marker.length) + marker;
}

/**
 * A text cell written as an inline string (`t="inlineStr"`). exceljs writes a plain string as
 * `t="str"`, which its own reader entity-decodes twice (a visitor's "&amp;lt;" would read back
 * as "<"); an inline rich-text run is read back exactly, by exceljs as by Excel and LibreOffice,
 * and keeps the streaming writer free of a shared-strings table held in memory.
 */
export function inlineText(value: string): ExcelJS.CellRichTextValue {
  return { richText: [{ text: cellText(value) }] };
}

const XML_CELL_LIMIT = XLSX_CELL_MAX_CHARS;

/** The client closed the connection before the file was complete. */
export class LogsExportAbortedError extends Error {
  override readonly name = 'LogsExportAbortedError';
  constructor() {
    super('The logs download was closed by the client before it completed.');
  }
}

/** How much compressed-but-not-yet XML may wait in memory before the next batch is read. */
const SHEET_BACKLOG_MAX_BYTES = 1024 * 1024;

/**
 * Bytes of a sheet's XML that exceljs has written into the zip's entry stream and the zip has
 * not consumed yet. exceljs 4.4 pipes the sheet's buffer into a readable-stream PassThrough and
 * ignores its backpressure; its writable state's `length` is that backlog. 0 if the internals
 * ever change shape (then only the client's backpressure applies).
 */
function sheetBacklog(sheet: ExcelJS.Worksheet): number {
  const internals = sheet as unknown as { stream?: { pipes?: Array<{ _writableState?: { length?: unknown } }> } };
  const length = internals.stream?.pipes?.[0]?._writableState?.length;
  return typeof length === 'number' ? length : 0;
}

interface BotTotals {
  name: string;
  messages: number;
  tokens: number;
  cents: number;
}

/** An export whose first batch is already read: the caller can still answer an error before any byte is sent. */
export interface PreparedLogsExport {
  fileName: string;
  /** Streams the workbook into `out` and ends it. */
  writeTo(out: Writable): Promise<void>;
}

/**
 * The owner's chat log as an .xlsx, streamed: rows are read in keyset batches and written with
 * exceljs's streaming WorkbookWriter straight into the response, so memory stays at about one
 * batch whatever the size of the log, and a slow client slows the reading (drain) instead of
 * filling memory.
 *
 * Sheet "Logs": one row per message (time UTC, bot, conversation id, role, content, model, tokens,
 * cost in dollars), oldest first. Sheet "Summary": per bot (name as last logged; a deleted bot by
 * its logged name), messages, tokens and cost, plus a total, counted from exactly the rows
 * written to "Logs", so the two sheets always agree.
 */
@Injectable()
export class LogsExportService {
  constructor(
    private readonly usage: UsageRepository,
    private readonly clock: UsageClock,
  ) {}

  async prepare(ownerId: number, now: Date = this.clock.now()): Promise<PreparedLogsExport> {
    const first = await this.usage.findLogBatch(ownerId, null, LOGS_EXPORT_BATCH_ROWS);
    return {
      fileName: logsFileName(now),
      writeTo: (out) => this.write(ownerId, first, out),
    };
  }

  private async write(ownerId: number, first: LogRow[], out: Writable): Promise<void> {
    const workbook = await streamingWorkbook(out);
    const logs = addHeaderedSheet(workbook, LOG_SHEET, [
      { header: LOG_COLUMNS[0], key: 'time', width: 20, style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } },
      { header: LOG_COLUMNS[1], key: 'bot', width: 24 },
      { header: LOG_COLUMNS[2], key: 'conversation', width: 16 },
      { header: LOG_COLUMNS[3], key: 'role', width: 10 },
      { header: LOG_COLUMNS[4], key: 'content', width: 80 },
      { header: LOG_COLUMNS[5], key: 'model', width: 16 },
      { header: LOG_COLUMNS[6], key: 'tokens', width: 10 },
      { header: LOG_COLUMNS[7], key: 'cost', width: 10, style: { numFmt: '0.00' } },
    ]);

    const totals = new Map<string, BotTotals>();
    let batch = first;
    while (batch.length > 0) {
      for (const row of batch) {
        logs
          .addRow({
            time: row.createdAt,
            bot: inlineText(row.botName),
            conversation: row.conversationId,
            role: inlineText(row.role),
            content: inlineText(row.content),
            model: row.model === null ? undefined : inlineText(row.model),
            tokens: row.tokens,
            cost: row.costCents / 100,
          })
          .commit();
        const key = row.botId === null ? `deleted:${row.botName}` : `bot:${row.botId}`;
        const entry = totals.get(key) ?? { name: row.botName, messages: 0, tokens: 0, cents: 0 };
        entry.name = row.botName;
        entry.messages += 1;
        entry.tokens += row.tokens;
        entry.cents += row.costCents;
        totals.set(key, entry);
      }
      if (batch.length < LOGS_EXPORT_BATCH_ROWS) break;
      await waitForRoom(logs, out);
      const last = batch[batch.length - 1];
      const cursor: LogCursor = { cursorAt: last.cursorAt, id: last.id };
      batch = await this.usage.findLogBatch(ownerId, cursor, LOGS_EXPORT_BATCH_ROWS);
    }
    logs.commit();

    const summary = addHeaderedSheet(workbook, SUMMARY_SHEET, [
      { header: SUMMARY_COLUMNS[0], key: 'bot', width: 28 },
      { header: SUMMARY_COLUMNS[1], key: 'messages', width: 12 },
      { header: SUMMARY_COLUMNS[2], key: 'tokens', width: 12 },
      { header: SUMMARY_COLUMNS[3], key: 'cost', width: 12, style: { numFmt: '0.00' } },
    ]);
    const all: BotTotals = { name: SUMMARY_TOTAL_LABEL, messages: 0, tokens: 0, cents: 0 };
    const bots = [...totals.values()].sort((a, b) => a.name.localeCompare(b.name));
    for (const bot of bots) {
      summary
        .addRow({ bot: inlineText(bot.name), messages: bot.messages, tokens: bot.tokens, cost: bot.cents / 100 })
        .commit();
      all.messages += bot.messages;
      all.tokens += bot.tokens;
      all.cents += bot.cents;
    }
    const total = summary.addRow({
      bot: inlineText(all.name),
      messages: all.messages,
      tokens: all.tokens,
      cost: all.cents / 100,
    });
    total.font = { bold: true };
    total.commit();
    summary.commit();

    await workbook.commit();
  }
}

/**
 * A workbook streamed into `out` as it is written (memory stays at the rows not yet flushed).
 * exceljs is loaded here, on the first export, not at start: it is the costliest package the app
 * imports (about 0.3 s on a small machine) and most starts never export
 * (docs/decisions/0016-chat-path-cost.md, "Start-up").
 */
export async function streamingWorkbook(out: Writable): Promise<ExcelJS.stream.xlsx.WorkbookWriter> {
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Botsmith';
  return workbook;
}

/** A sheet of an export: its header row in bold, frozen while scrolling, and written at once. */
export function addHeaderedSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  columns: Partial<ExcelJS.Column>[],
): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns;
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  return sheet;
}

/**
 * Backpressure, twice. exceljs hands each sheet's XML to the zip's deflate stream without
 * waiting for it, and deflate runs on the thread pool, so rows committed faster than they are
 * compressed would pile up in memory: wait until that backlog is small. And a client slower
 * than the database (a full socket buffer) makes us wait for 'drain'. A client that went away
 * ends the export instead of leaving it waiting forever. Call between batches of rows.
 */
export async function waitForRoom(sheet: ExcelJS.Worksheet, out: Writable): Promise<void> {
  for (;;) {
    if (out.destroyed) throw new LogsExportAbortedError();
    if (out.writableNeedDrain) {
      await new Promise<void>((resolve) => {
        const done = () => {
          out.off('drain', done);
          out.off('close', done);
          resolve();
        };
        out.on('drain', done);
        out.on('close', done);
      });
    } else if (sheetBacklog(sheet) > SHEET_BACKLOG_MAX_BYTES) {
      await new Promise<void>((resolve) => setTimeout(resolve, 2));
    } else {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (out.destroyed) throw new LogsExportAbortedError();
      return;
    }
  }
}

/**
 * Answers with a prepared workbook as an .xlsx attachment. Headers go out before the first byte,
 * so a failure while streaming can no longer become a JSON error: the connection is cut instead,
 * and logged unless the client was the one who left.
 */
export async function sendWorkbook(res: Response, workbook: PreparedLogsExport, logger: Logger): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', XLSX_CONTENT_TYPE);
  res.setHeader('Content-Disposition', `attachment; filename="${workbook.fileName}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  try {
    await workbook.writeTo(res);
  } catch (error) {
    // Half a workbook must not look like a complete download: cut the connection.
    if (!(error instanceof LogsExportAbortedError)) {
      logger.error(describeErrorWithStack(error));
    }
    res.destroy();
  }
}
