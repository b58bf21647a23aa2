/**
 * Ready-made actions (docs/product.md#actions): the Actions tab's "Start from a template" menu
 * fills the add form with one of these; the owner only replaces the URL's address placeholder and
 * pastes the key. Each definition passes the API's rules once its placeholder is replaced
 * (the backend's action-templates unit test checks it).
 */
import type { SaveActionRequest } from './actions.js';

export interface ActionTemplate {
  /** Stable key (menus, tests). */
  id: string;
  /** The menu's label. */
  label: string;
  /**
   * The part of `action.url` the owner must replace with their own address (it sits in the
   * host, so the API refuses the URL until it is replaced).
   */
  urlPlaceholder: string;
  /** What to put in its place, and where to find the key: shown above the form. */
  hint: string;
  /** The action, headers named with an empty value (the owner pastes the key). */
  action: SaveActionRequest & { headers: Array<{ name: string; value: string }> };
}

export const ACTION_TEMPLATES: readonly ActionTemplate[] = [
  {
    id: 'shopify-order-status',
    label: 'Order status (Shopify)',
    urlPlaceholder: '{your-shop}',
    hint:
      "Replace {your-shop} with your store's name as in your-shop.myshopify.com, and paste an Admin API access token " +
      '(Settings → Apps → Develop apps, with the read_orders scope) after "X-Shopify-Access-Token:". ' +
      "The order's e-mail must be the signed-in visitor's: another customer's order is never shown.",
    action: {
      name: 'order_status',
      description: "Look up the status, payment and shipping of the visitor's order by its order number (e.g. #1001).",
      parameters: {
        type: 'object',
        properties: {
          // Shopify's orders.json filters by `name`: the order number as the customer sees it.
          name: { type: 'string', description: 'The order number, e.g. #1001', maxLength: 20 },
        },
        required: ['name'],
      },
      method: 'GET',
      url: 'https://{your-shop}.myshopify.com/admin/api/2024-10/orders.json?status=any',
      headers: [{ name: 'X-Shopify-Access-Token', value: '' }],
      visitorFields: ['email'],
      requiresVerifiedVisitor: true,
      timeoutMs: 8000,
      answerFields: [
        '/orders/0/name',
        '/orders/0/created_at',
        '/orders/0/financial_status',
        '/orders/0/fulfillment_status',
        '/orders/0/fulfillments/0/tracking_company',
        '/orders/0/fulfillments/0/tracking_number',
        '/orders/0/fulfillments/0/tracking_url',
      ],
      // The store answers any order by its number: only the one placed with the visitor's e-mail is used.
      visitorMatch: { pointer: '/orders/0/email', field: 'email' },
    },
  },
  {
    id: 'woocommerce-order-status',
    label: 'Order status (WooCommerce)',
    urlPlaceholder: '{your-store}',
    hint:
      'Replace {your-store} with your store\'s address (e.g. shop.example.com), and after "Authorization: Basic " ' +
      'paste your REST API consumer key and secret as base64 of key:secret (WooCommerce → Settings → Advanced → REST API, read access). ' +
      "The order's billing e-mail must be the signed-in visitor's: another customer's order is never shown.",
    action: {
      name: 'order_status',
      description: "Look up the status and shipping of the visitor's order by its order number (e.g. 1042).",
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'integer', description: 'The order number, e.g. 1042' } },
        required: ['order_id'],
      },
      method: 'GET',
      url: 'https://{your-store}/wp-json/wc/v3/orders/{order_id}',
      headers: [{ name: 'Authorization', value: 'Basic ' }],
      visitorFields: ['email'],
      requiresVerifiedVisitor: true,
      timeoutMs: 8000,
      answerFields: ['/status', '/date_created', '/shipping_lines/0/method_title', '/total', '/currency'],
      // As for Shopify: the store does not check the e-mail sent, so the answer's billing e-mail is.
      visitorMatch: { pointer: '/billing/email', field: 'email' },
    },
  },
  {
    id: 'support-ticket',
    label: 'Create a support ticket',
    urlPlaceholder: '{your-helpdesk}',
    hint:
      "Replace {your-helpdesk} with your help desk API's address; the ticket goes there as JSON with the visitor's " +
      'id and e-mail under "visitor". Paste its API key after "Authorization: Bearer ".',
    action: {
      name: 'create_support_ticket',
      description:
        'Create a support ticket for the visitor when they ask for help a person must give; say the ticket number.',
      parameters: {
        type: 'object',
        properties: {
          subject: { type: 'string', description: 'A short summary of the problem', maxLength: 150 },
          message: { type: 'string', description: "The visitor's problem in their words", maxLength: 1000 },
          priority: { type: 'string', description: 'How urgent it is', enum: ['low', 'normal', 'high'] },
        },
        required: ['subject', 'message'],
      },
      method: 'POST',
      url: 'https://{your-helpdesk}/api/tickets',
      headers: [{ name: 'Authorization', value: 'Bearer ' }],
      visitorFields: ['sub', 'email'],
      requiresVerifiedVisitor: true,
      timeoutMs: 8000,
      answerFields: ['/id', '/status'],
    },
  },
  {
    id: 'book-meeting',
    label: 'Book a meeting',
    urlPlaceholder: '{your-scheduler}',
    hint:
      "Replace {your-scheduler} with your scheduling API's address; it receives the visitor's e-mail and answers " +
      'with a booking link ({"url": …}). Paste its API key after "Authorization: Bearer ".',
    action: {
      name: 'book_meeting',
      description: 'Get a link where the visitor can book a meeting or a call with the team.',
      parameters: {
        type: 'object',
        properties: {
          topic: { type: 'string', description: 'What the meeting is about', maxLength: 200 },
        },
      },
      method: 'GET',
      url: 'https://{your-scheduler}/api/scheduling-links',
      headers: [{ name: 'Authorization', value: 'Bearer ' }],
      visitorFields: ['email'],
      requiresVerifiedVisitor: true,
      timeoutMs: 8000,
      answerFields: ['/url', '/expires_at'],
    },
  },
];
