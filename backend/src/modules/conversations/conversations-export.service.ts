import type { Writable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { addHeaderedSheet, inlineText, streamingWorkbook, waitForRoom } from '../usage/logs-export.service.js';
import {
  ConversationsRepository,
  type ConversationCursor,
  type ConversationSelection,
  type ExportRow,
} from './conversations.repository.js';

/** The sheet and its columns; the tests read the file back by these names. */
export const CONVERSATIONS_SHEET = 'Conversations';
export const CONVERSATIONS_COLUMNS = [
  'Conversation ID',
  'Bot',
  'Started (UTC)',
  'Page',
  'Role',
  'Content',
  'Rating',
  'Unanswered',
  'Time (UTC)',
  'Visitor name',
  'Visitor email',
] as const;

/** Conversations per read: each batch is one short query with all their messages. */
const EXPORT_BATCH_CONVERSATIONS = 200;

/** `conversations_{YYYY-MM-DD}_{HH-mm-ss}.xlsx`, UTC. */
export function conversationsFileName(now: Date): string {
  const iso = now.toISOString();
  return `conversations_${iso.slice(0, 10)}_${iso.slice(11, 19).replaceAll(':', '-')}.xlsx`;
}

export interface PreparedConversationsExport {
  fileName: string;
  /** Streams the workbook into `out` and ends it. */
  writeTo(out: Writable): Promise<void>;
}

/**
 * The inbox's matching conversations as an .xlsx, one row per message, newest conversation first
 * and each conversation's messages in order, streamed the way the logs download is
 * (LogsExportService): keyset batches of conversations written with exceljs's streaming
 * WorkbookWriter, waiting for the client when its socket is full, so memory stays at one batch.
 */
@Injectable()
export class ConversationsExportService {
  constructor(private readonly conversations: ConversationsRepository) {}

  async prepare(selection: ConversationSelection, now: Date = new Date()): Promise<PreparedConversationsExport> {
    const first = await this.conversations.findExportBatch(selection, null, EXPORT_BATCH_CONVERSATIONS);
    return { fileName: conversationsFileName(now), writeTo: (out) => this.write(selection, first, out) };
  }

  private async write(selection: ConversationSelection, first: ExportRow[], out: Writable): Promise<void> {
    const workbook = await streamingWorkbook(out);
    const time = { numFmt: 'yyyy-mm-dd hh:mm:ss' };
    const sheet = addHeaderedSheet(workbook, CONVERSATIONS_SHEET, [
      { header: CONVERSATIONS_COLUMNS[0], key: 'conversation', width: 16 },
      { header: CONVERSATIONS_COLUMNS[1], key: 'bot', width: 24 },
      { header: CONVERSATIONS_COLUMNS[2], key: 'started', width: 20, style: time },
      { header: CONVERSATIONS_COLUMNS[3], key: 'page', width: 40 },
      { header: CONVERSATIONS_COLUMNS[4], key: 'role', width: 10 },
      { header: CONVERSATIONS_COLUMNS[5], key: 'content', width: 80 },
      { header: CONVERSATIONS_COLUMNS[6], key: 'rating', width: 8 },
      { header: CONVERSATIONS_COLUMNS[7], key: 'unanswered', width: 12 },
      { header: CONVERSATIONS_COLUMNS[8], key: 'time', width: 20, style: time },
      // Who the host page said the visitor is (display only, unverified); appended so earlier columns keep their place.
      { header: CONVERSATIONS_COLUMNS[9], key: 'visitorName', width: 24 },
      { header: CONVERSATIONS_COLUMNS[10], key: 'visitorEmail', width: 32 },
    ]);

    let batch = first;
    while (batch.length > 0) {
      let last = null as ConversationCursor | null;
      let conversationsRead = 0;
      for (const { conversation, message } of batch) {
        if (last?.id !== conversation.id) conversationsRead += 1;
        last = { at: conversation.cursorAt, id: conversation.id };
        if (!message) continue;
        sheet
          .addRow({
            conversation: conversation.id,
            bot: inlineText(conversation.botName),
            started: conversation.startedAt,
            page: conversation.pageUrl === null ? undefined : inlineText(conversation.pageUrl),
            role: inlineText(message.role),
            content: inlineText(message.content),
            rating: message.rating === null ? undefined : inlineText(message.rating),
            unanswered: message.unanswered ? inlineText('yes') : undefined,
            time: message.createdAt,
            visitorName: conversation.visitorName === null ? undefined : inlineText(conversation.visitorName),
            visitorEmail: conversation.visitorEmail === null ? undefined : inlineText(conversation.visitorEmail),
          })
          .commit();
      }
      if (conversationsRead < EXPORT_BATCH_CONVERSATIONS || !last) break;
      await waitForRoom(sheet, out);
      batch = await this.conversations.findExportBatch(selection, last, EXPORT_BATCH_CONVERSATIONS);
    }
    sheet.commit();
    await workbook.commit();
  }
}
