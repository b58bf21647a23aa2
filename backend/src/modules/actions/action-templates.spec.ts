import { describe, expect, it } from '@jest/globals';
import { ACTION_TEMPLATES } from '@botsmith/contract';
import {
  ActionDefinitionError,
  checkAnswerFields,
  checkDescription,
  checkHeaderName,
  checkMethod,
  checkName,
  checkParametersSchema,
  checkTimeout,
  checkUrlTemplate,
  checkVisitorFields,
  checkVisitorMatch,
} from './action-definition.js';

/** The Actions tab's templates (contract/src/action-templates.ts) against the rules every saved action meets. */
describe('action templates', () => {
  it('are the four of the issue, with distinct ids', () => {
    expect(ACTION_TEMPLATES.map((t) => t.label)).toEqual([
      'Order status (Shopify)',
      'Order status (WooCommerce)',
      'Create a support ticket',
      'Book a meeting',
    ]);
    expect(new Set(ACTION_TEMPLATES.map((t) => t.id)).size).toBe(ACTION_TEMPLATES.length);
  });

  for (const template of ACTION_TEMPLATES) {
    describe(template.label, () => {
      const { action } = template;

      it('passes every definition rule once its address placeholder is replaced', () => {
        const parameters = checkParametersSchema(action.parameters);
        expect(parameters).toEqual(action.parameters);
        expect(checkName(action.name)).toBe(action.name);
        expect(checkDescription(action.description)).toBe(action.description);
        expect(checkMethod(action.method)).toBe(action.method);
        const url = action.url.replace(template.urlPlaceholder, 'acme-store');
        expect(checkUrlTemplate(url, parameters, false)).toBe(url);
        expect(checkVisitorFields(action.visitorFields)).toEqual(action.visitorFields);
        expect(checkTimeout(action.timeoutMs)).toBe(action.timeoutMs);
        expect(checkAnswerFields(action.answerFields)).toEqual(action.answerFields);
        for (const header of action.headers) expect(checkHeaderName(header.name)).toBe(header.name);
        expect(action.requiresVerifiedVisitor).toBe(true);
        expect(checkVisitorMatch(action.visitorMatch, action.requiresVerifiedVisitor ?? true)).toEqual(
          action.visitorMatch ?? null,
        );
      });

      it('is refused as it comes, until the owner puts their own address in the URL', () => {
        expect(action.url).toContain(template.urlPlaceholder);
        expect(template.hint).toContain(template.urlPlaceholder);
        expect(() => checkUrlTemplate(action.url, checkParametersSchema(action.parameters), false)).toThrow(
          ActionDefinitionError,
        );
      });

      it('sends the verified e-mail and names the key header without a value', () => {
        expect(action.visitorFields).toContain('email');
        expect(action.headers.length).toBeGreaterThan(0);
        for (const header of action.headers) expect(header.value.replace(/^(Basic|Bearer) $/, '')).toBe('');
      });
    });
  }

  it('order templates take the order number and show the preset answer fields', () => {
    const shopify = ACTION_TEMPLATES.find((t) => t.id === 'shopify-order-status')!.action;
    expect(shopify.url).toBe('https://{your-shop}.myshopify.com/admin/api/2024-10/orders.json?status=any');
    expect(shopify.answerFields).toEqual(
      expect.arrayContaining([
        '/orders/0/financial_status',
        '/orders/0/fulfillment_status',
        '/orders/0/fulfillments/0/tracking_url',
      ]),
    );
    const woo = ACTION_TEMPLATES.find((t) => t.id === 'woocommerce-order-status')!.action;
    expect(woo.url).toBe('https://{your-store}/wp-json/wc/v3/orders/{order_id}');
    expect(woo.answerFields).toEqual(
      expect.arrayContaining(['/status', '/date_created', '/shipping_lines/0/method_title']),
    );
    expect(ACTION_TEMPLATES.find((t) => t.id === 'support-ticket')!.action.method).toBe('POST');
    // The stores answer any order by its number: each order template keeps only the visitor's own.
    expect(shopify.visitorMatch).toEqual({ pointer: '/orders/0/email', field: 'email' });
    expect(woo.visitorMatch).toEqual({ pointer: '/billing/email', field: 'email' });
  });
});
