/** The widget's fallback texts (docs/product.md#widget-messages), quoted exactly. */
export const BOT_FETCH_FAILED = 'Error fetching bot details.';
export const GENERIC_ERROR = 'An error occurred.';
export const SEND_FAILED = 'An error occurred while sending your message.';
export const DEFAULT_PLACEHOLDER = 'Type your message here...';
/** What the API says while its database or Redis is unreachable; also shown for a proxy's bare 503. */
export const SERVICE_UNAVAILABLE = 'Botsmith is briefly unavailable. Please try again in a moment.';
