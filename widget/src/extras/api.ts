import texts from '#extras-texts';
import type { LeadField, MessageRating } from '@botsmith/contract';
import { credentialsFor, errorText, visitorHeaders } from '../lib/api';
import { saveVisitorToken } from '../lib/storage';

/** Rates an answer (POST /api/chat/feedback) as the visitor who got it; true once the server took it. */
export async function sendFeedback(apiOrigin: string, botId: string, messageId: number, rating: MessageRating) {
  try {
    const res = await fetch(`${apiOrigin}/api/chat/feedback`, {
      method: 'POST',
      credentials: credentialsFor(apiOrigin),
      headers: visitorHeaders(botId),
      body: JSON.stringify({ botId, messageId, rating }),
    });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Sends the lead form (POST /api/chat/lead) as this visitor: '' once the server took it, else the
 * text to show (the server's reason, e.g. an address it refused, or the widget's own). A visitor
 * whose first contact is the form gets their token here, so the conversation the lead starts is
 * the one their later messages and the owner's replies belong to.
 */
export async function sendLead(
  apiOrigin: string,
  botId: string,
  fields: Partial<Record<LeadField, string>>,
): Promise<string> {
  try {
    const res = await fetch(`${apiOrigin}/api/chat/lead`, {
      method: 'POST',
      credentials: credentialsFor(apiOrigin),
      headers: visitorHeaders(botId),
      body: JSON.stringify({ botId, ...fields }),
    });
    const issued = res.headers.get('X-Visitor-Token');
    if (issued) saveVisitorToken(botId, issued);
    return res.ok ? '' : await errorText(res, texts.leadFailed);
  } catch {
    return texts.leadFailed;
  }
}

/**
 * Deletes the visitor's conversations with the bot on the server (DELETE
 * /api/chat/conversations/current); true once nothing is left there, including when there was
 * nothing to delete (404: the visitor never sent a message, or it is already gone).
 */
export async function deleteConversation(apiOrigin: string, botId: string): Promise<boolean> {
  try {
    const res = await fetch(`${apiOrigin}/api/chat/conversations/current`, {
      method: 'DELETE',
      credentials: credentialsFor(apiOrigin),
      headers: visitorHeaders(botId),
      body: JSON.stringify({ botId }),
    });
    return res.ok || res.status == 404;
  } catch {
    return false;
  }
}
