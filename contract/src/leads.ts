/**
 * Lead capture (docs/product.md#leads-and-handoff): a bot's setting, the widget's form, and the
 * owner's list of leads. Shared by the API, the dashboard and the widget.
 */

/** The fields the visitor's form may ask for; the e-mail or the phone must be among them. */
export const LEAD_FIELDS = ['name', 'email', 'phone', 'message'] as const;
export type LeadField = (typeof LEAD_FIELDS)[number];

/**
 * When the widget offers the form: `cap` instead of hiding when the bot is at its budget or its
 * owner cannot be charged, `request` when the visitor asks for a person, `unanswered` when an
 * answer is flagged unanswered, `start` before the first message.
 */
export const LEAD_OFFER_WHEN = ['cap', 'request', 'unanswered', 'start'] as const;
export type LeadOfferWhen = (typeof LEAD_OFFER_WHEN)[number];

/** A bot's `leadCapture` setting, as its owner reads and saves it (GET/PUT /api/bots/{id}). */
export interface LeadCaptureSettings {
  enabled: boolean;
  fields: LeadField[];
  offerWhen: LeadOfferWhen[];
  /** Where leads are e-mailed; empty: the owner's account address. */
  notifyEmails: string[];
  /** Shown after the form is sent; empty: LEAD_THANK_YOU_DEFAULT. */
  thankYouText: string;
}

/**
 * The setting of a new bot, and of every bot that existed before lead capture: on, so no visitor
 * is lost on a bot nobody reconfigured.
 */
export const LEAD_CAPTURE_DEFAULTS: LeadCaptureSettings = {
  enabled: true,
  fields: ['email'],
  offerWhen: ['cap', 'request'],
  notifyEmails: [],
  thankYouText: '',
};

/** What the visitor reads after sending the form when the owner wrote no thank-you text. */
export const LEAD_THANK_YOU_DEFAULT = "Thanks! We'll get back to you soon.";

/** Bounds of the setting and of a lead (name, message and e-mail in characters). */
export const LEAD_LIMITS = {
  notifyEmails: 5,
  thankYouText: 200,
  name: 100,
  email: 254,
  /** The phone as typed: digits, spaces and + ( ) - . */
  phone: 40,
  phoneDigitsMin: 6,
  phoneDigitsMax: 20,
  message: 2000,
} as const;

/** A phone number as visitors type it: digits, spaces and + ( ) - ., with 6 to 20 digits. */
/*#__NO_SIDE_EFFECTS__*/
export function isLeadPhone(value: string): boolean {
  if (value.length > LEAD_LIMITS.phone || !/^[\d\s+().-]+$/.test(value)) return false;
  const digits = value.replace(/\D/g, '').length;
  return digits >= LEAD_LIMITS.phoneDigitsMin && digits <= LEAD_LIMITS.phoneDigitsMax;
}

/** The public face's part of the setting (never the notify addresses); null when capture is off. */
export interface PublicLeadCapture {
  fields: LeadField[];
  offerWhen: LeadOfferWhen[];
  /** The owner's text, or '' for the widget's default (LEAD_THANK_YOU_DEFAULT). */
  thankYouText: string;
}

/** POST /api/chat/lead. Fields the bot does not ask for are refused; the e-mail or the phone is required. */
export interface LeadRequest {
  botId: number;
  name?: string;
  email?: string;
  phone?: string;
  message?: string;
}

/** POST /api/chat/lead → 201: the text to show the visitor. */
export interface LeadResponse {
  message: string;
}

/** One lead in the owner's list (GET /api/leads). Absent fields are null. */
export interface LeadSummary {
  id: number;
  /** null once the bot is deleted (its leads stay, with the name it had). */
  botId: number | null;
  botName: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string | null;
  /** The visitor's conversation in the inbox. */
  conversationId: number;
  /** ISO 8601. */
  createdAt: string;
}

/** GET /api/leads: newest first; pass nextCursor back as cursor for the next page. */
export interface LeadsPage {
  leads: LeadSummary[];
  nextCursor: string | null;
}

export const LEADS_PAGE = { limit: 50 } as const;

/**
 * A lead address's state (docs/product.md#mail-consent): `account` is the owner's own verified
 * address (needs no confirmation); `pending` got a confirmation mail (or will with the next lead)
 * and receives no lead until it is confirmed.
 */
export type NotifyEmailState = 'account' | 'confirmed' | 'pending';

export interface NotifyEmailStatus {
  email: string;
  state: NotifyEmailState;
  /** ISO 8601: when the last confirmation mail went out; null when none did yet. */
  confirmationSentAt: string | null;
}

/** GET /api/bots/{id}/notify-emails: the bot's lead addresses, in its setting's order. */
export interface NotifyEmailsResponse {
  addresses: NotifyEmailStatus[];
}

/** POST /api/bots/{id}/notify-emails/resend. */
export interface ResendConfirmationRequest {
  email: string;
}

/**
 * GET /api/mail/usage: the mails the account's bots and replies triggered today (UTC), against
 * MAIL_DAILY_LIMIT_PER_ACCOUNT. `limitReached`: later ones wait for tomorrow (leads and replies
 * stay in the inbox).
 */
export interface MailUsageResponse {
  sentToday: number;
  dailyLimit: number;
  limitReached: boolean;
}

/** GET /api/leads/export: which bot's leads, as digits (all when absent). */
export interface LeadFiltersQuery {
  botId?: string;
}
/** GET /api/leads: the filter and where the previous page ended. */
export interface LeadsPageQuery extends LeadFiltersQuery {
  cursor?: string;
}
