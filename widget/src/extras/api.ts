import texts from '#extras-texts';
import type { LeadField, MessageRating } from '@botsmith/contract';
import { errorText, visitorFetch } from '../lib/api';

/**
 * Rates an answer (POST /api/chat/feedback) as the visitor who got it, with the thumbs down's
 * comment when they wrote one (the last rating wins); true once the server took it.
 */
export async function sendFeedback(
  apiOrigin: string,
  botId: string,
  messageId: number,
  rating: MessageRating,
  comment?: string,
) {
  try {
    const body = JSON.stringify({ botId, messageId, rating, comment });
    return (await visitorFetch(apiOrigin, botId, '/api/chat/feedback', { method: 'POST', body })).ok;
  } catch {
    return false;
  }
}

/**
 * Sends the lead form (POST /api/chat/lead) as this visitor: '' once the server took it, else the
 * text to show (the server's reason, e.g. an address it refused, or the widget's own). A visitor
 * whose first contact is the form gets their token with the answer (visitorFetch keeps it), so the
 * conversation the lead starts is the one their later messages and the owner's replies belong to.
 */
export async function sendLead(
  apiOrigin: string,
  botId: string,
  fields: Partial<Record<LeadField, string>>,
): Promise<string> {
  try {
    const body = JSON.stringify({ botId, ...fields });
    const res = await visitorFetch(apiOrigin, botId, '/api/chat/lead', { method: 'POST', body });
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
    const body = JSON.stringify({ botId });
    const res = await visitorFetch(apiOrigin, botId, '/api/chat/conversations/current', { method: 'DELETE', body });
    return res.ok || res.status == 404;
  } catch {
    return false;
  }
}
