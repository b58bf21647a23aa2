/** The brief's widget fallbacks (section 8), quoted exactly. */
export const BOT_FETCH_FAILED = 'Error fetching bot details.';
export const GENERIC_ERROR = 'An error occurred.';
export const SEND_FAILED = 'An error occurred while sending your message.';
export const DEFAULT_PLACEHOLDER = 'Type your message here...';
