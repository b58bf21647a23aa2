import type { Writable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { addHeaderedSheet, inlineText, streamingWorkbook, waitForRoom } from '../usage/logs-export.service.js';
import { LeadsRepository, type LeadRow } from './leads.repository.js';

/** The sheet and its columns; the tests read the file back by these names. */
export const LEADS_SHEET = 'Leads';
export const LEADS_COLUMNS = ['Time (UTC)', 'Bot', 'Name', 'Email', 'Phone', 'Message', 'Conversation ID'] as const;

const EXPORT_BATCH_LEADS = 500;

/** `leads_{YYYY-MM-DD}_{HH-mm-ss}.xlsx`, UTC. */
export function leadsFileName(now: Date): string {
  const iso = now.toISOString();
  return `leads_${iso.slice(0, 10)}_${iso.slice(11, 19).replaceAll(':', '-')}.xlsx`;
}

export interface PreparedLeadsExport {
  fileName: string;
  /** Streams the workbook into `out` and ends it. */
  writeTo(out: Writable): Promise<void>;
}

/**
 * The owner's leads (of one bot, or all) as an .xlsx, newest first, streamed like the other
 * exports: keyset batches written with exceljs's streaming WorkbookWriter.
 */
@Injectable()
export class LeadsExportService {
  constructor(private readonly leads: LeadsRepository) {}

  async prepare(ownerId: number, botId: number | null, now: Date = new Date()): Promise<PreparedLeadsExport> {
    const first = await this.leads.findPage(ownerId, botId, null, EXPORT_BATCH_LEADS);
    return { fileName: leadsFileName(now), writeTo: (out) => this.write(ownerId, botId, first, out) };
  }

  private async write(ownerId: number, botId: number | null, first: LeadRow[], out: Writable): Promise<void> {
    const workbook = await streamingWorkbook(out);
    const sheet = addHeaderedSheet(workbook, LEADS_SHEET, [
      { header: LEADS_COLUMNS[0], key: 'time', width: 20, style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } },
      { header: LEADS_COLUMNS[1], key: 'bot', width: 24 },
      { header: LEADS_COLUMNS[2], key: 'name', width: 24 },
      { header: LEADS_COLUMNS[3], key: 'email', width: 30 },
      { header: LEADS_COLUMNS[4], key: 'phone', width: 18 },
      { header: LEADS_COLUMNS[5], key: 'message', width: 80 },
      { header: LEADS_COLUMNS[6], key: 'conversation', width: 16 },
    ]);
    const text = (value: string | null) => (value === null ? undefined : inlineText(value));

    let batch = first;
    while (batch.length > 0) {
      for (const lead of batch) {
        sheet
          .addRow({
            time: lead.createdAt,
            bot: inlineText(lead.botName),
            name: text(lead.name),
            email: text(lead.email),
            phone: text(lead.phone),
            message: text(lead.message),
            conversation: lead.conversationId,
          })
          .commit();
      }
      if (batch.length < EXPORT_BATCH_LEADS) break;
      const last = batch[batch.length - 1];
      await waitForRoom(sheet, out);
      batch = await this.leads.findPage(ownerId, botId, { at: last.cursorAt, id: last.id }, EXPORT_BATCH_LEADS);
    }
    sheet.commit();
    await workbook.commit();
  }
}
