import { botsApi } from '../../api';
import type { BotResponse, DocumentResponse } from '../../api/types';
import { KnowledgeSection } from './KnowledgeSection';

export interface KnowledgeTabProps {
  bot: BotResponse;
  /** The bot as the server now has it (its reference document changed). */
  onSaved: (bot: BotResponse) => void;
}

/**
 * The edit-bot dialog's Knowledge tab: every source the bot answers from in one list (files, the
 * reference document among them, websites with their pages, written answers and corrections,
 * editable), saved as each change is made (docs/product.md#knowledge-sources).
 */
export function KnowledgeTab({ bot, onSaved }: KnowledgeTabProps) {
  // The deleted source may have been the reference document: show the bot as the server has it.
  const reread = async () => {
    if (!bot.document) return;
    try {
      onSaved((await botsApi.get(bot.id)).bot);
    } catch {
      /* the document stays named until the dialog is opened again */
    }
  };

  return (
    <KnowledgeSection
      botId={bot.id}
      revision={bot.document?.filePath ?? null}
      onDeleted={() => void reread()}
      reference={{
        document: bot.document,
        onUploaded: (document: DocumentResponse) => onSaved({ ...bot, document }),
      }}
    />
  );
}
