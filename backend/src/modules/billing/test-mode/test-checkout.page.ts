import { formatWholeDollars, FREE_CREDITS_CENTS } from '@botsmith/contract';
import type { INestApplication } from '@nestjs/common';
import express, { type Request, type Response } from 'express';
import { PAYMENTS, type PaymentsPort } from '../payments.port.js';
import { checkTestCard, type CardForm } from './test-cards.js';
import { TestModePaymentsAdapter, type TestCheckoutView } from './test-mode-payments.adapter.js';

export const TEST_CHECKOUT_PATH = '/billing/test-checkout';

/** Why the card step asks for a card (docs/product.md#setup-flow); the dashboard says the same. */
export const WHY_A_CARD = `Why a card? Your ${formatWholeDollars(FREE_CREDITS_CENTS)} of free credits are free: nothing is charged until they are used up. After that, the card pays for the answers your bots give (billed monthly, on the 3rd), and asking for one keeps abuse out.`;

/**
 * Mounts the built-in test-mode payment page (only when the test-mode adapter runs): the stand-in
 * for Stripe's hosted Checkout page. Server-rendered HTML with a plain form POST: no script, so it
 * works under the app's CSP (script-src 'self'). The session id in the URL is the capability, as
 * with a Checkout Session URL. Mounted on the Express instance before the frontend's history
 * fallback, outside /api.
 */
export function mountTestCheckoutPage(app: INestApplication): void {
  const payments = app.get<PaymentsPort>(PAYMENTS, { strict: false });
  if (!(payments instanceof TestModePaymentsAdapter)) return;
  const server = app.getHttpAdapter().getInstance() as express.Express;
  const route = `${TEST_CHECKOUT_PATH}/:sessionId`;

  server.get(route, (req: Request, res: Response, next) => {
    payments
      .viewCheckout(String(req.params.sessionId))
      .then((view) => sendPage(res, view, {}))
      .catch(next);
  });

  server.post(route, express.urlencoded({ extended: false, limit: '8kb' }), (req: Request, res: Response, next) => {
    void (async () => {
      const sessionId = String(req.params.sessionId);
      const view = await payments.viewCheckout(sessionId);
      if (!view || view.state !== 'open') return sendPage(res, view, {});
      const form = pickForm(req.body);
      const check = checkTestCard(form);
      if (!check.ok) return sendPage(res, view, { form, error: check.message, field: check.field }, 400);
      const redirect = await payments.completeCheckout(sessionId, check.value);
      if (!redirect) return sendPage(res, await payments.viewCheckout(sessionId), {});
      res.redirect(303, redirect);
    })().catch(next);
  });
}

function pickForm(body: unknown): CardForm {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 64) : '');
  return { cardNumber: text(b.cardNumber), expiry: text(b.expiry), cvc: text(b.cvc), name: text(b.name) };
}

interface PageState {
  form?: CardForm;
  error?: string;
  field?: keyof CardForm;
}

function sendPage(res: Response, view: TestCheckoutView | null, state: PageState, status = 200): void {
  res.setHeader('Cache-Control', 'no-store');
  res.type('html');
  if (!view) {
    res.status(404).send(
      layout(
        'Payment page not found',
        `<h1>This payment page does not exist</h1>
         <p class="muted">Go back to Botsmith and start the card setup again.</p>`,
      ),
    );
    return;
  }
  if (view.state === 'expired') {
    res.status(410).send(
      layout(
        'Payment page expired',
        `<h1>This payment page has expired</h1>
         <p class="muted">Go back and start again: a new page will be opened.</p>
         <p><a class="link" href="${escape(view.session.cancelUrl)}">Back to Botsmith</a></p>`,
      ),
    );
    return;
  }
  if (view.state === 'complete') {
    res.status(200).send(
      layout(
        'Card saved',
        `<h1>Your card is saved</h1>
         <p><a class="button" href="${escape(view.session.successUrl.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(view.session.id)))}">Continue</a></p>`,
      ),
    );
    return;
  }
  const form = state.form ?? {};
  const invalid = (field: keyof CardForm) => (state.field === field ? ' aria-invalid="true"' : '');
  res.status(status).send(
    layout(
      'Add a card — Test mode',
      `<h1>Add a card</h1>
       <p class="muted">Botsmith bills your usage monthly, on the 3rd. For <strong>${escape(view.session.email)}</strong></p>
       <p class="muted">${escape(WHY_A_CARD)}</p>
       ${state.error ? `<div class="error" role="alert">${escape(state.error)}</div>` : ''}
       <form method="post" novalidate>
         <label for="cardNumber">Card number</label>
         <input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242"
                value="${escape(form.cardNumber ?? '')}"${invalid('cardNumber')} required autofocus>
         <div class="row">
           <div>
             <label for="expiry">Expiry (MM / YY)</label>
             <input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="12 / 34" value="${escape(form.expiry ?? '')}"${invalid('expiry')} required>
           </div>
           <div>
             <label for="cvc">CVC</label>
             <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" value="${escape(form.cvc ?? '')}"${invalid('cvc')} required>
           </div>
         </div>
         <label for="name">Name on card</label>
         <input id="name" name="name" autocomplete="cc-name" value="${escape(form.name ?? '')}">
         <button type="submit">Save card</button>
       </form>
       <p class="cancel"><a class="link" href="${escape(view.session.cancelUrl)}">Cancel and go back</a></p>
       <div class="cards">
         <strong>Test cards</strong> (any future expiry, any CVC):
         <ul>
           <li><code>4242 4242 4242 4242</code> — payments succeed</li>
           <li><code>4000 0000 0000 0341</code> — the card is saved, but payments fail</li>
         </ul>
       </div>`,
    ),
  );
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)} · Botsmith</title>
<style>
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2933; background: #f4f6f8; }
  .banner { background: #fff4d6; color: #7a4d00; border-bottom: 1px solid #f0d48a; text-align: center; padding: 10px 16px; font-weight: 600; }
  main { max-width: 440px; margin: 40px auto; padding: 0 16px; }
  .card { background: #fff; border-radius: 12px; box-shadow: 0 2px 12px rgba(15, 23, 42, 0.08); padding: 28px; }
  .brand { font-weight: 700; color: #2e7d32; margin-bottom: 8px; letter-spacing: 0.02em; }
  h1 { font-size: 1.4rem; margin: 0 0 4px; }
  .muted { color: #52606d; margin: 0 0 20px; font-size: 0.95rem; }
  label { display: block; font-size: 0.9rem; font-weight: 600; margin: 14px 0 6px; }
  input { width: 100%; padding: 11px 12px; border: 1px solid #cbd2d9; border-radius: 8px; font: inherit; background: #fff; }
  input:focus { outline: 2px solid #2ecc71; outline-offset: 1px; border-color: #2ecc71; }
  input[aria-invalid="true"] { border-color: #c62828; }
  .row { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
  button, .button { display: block; width: 100%; margin-top: 22px; padding: 12px; border: 0; border-radius: 8px; background: #2e7d32;
    color: #fff; font: inherit; font-weight: 600; cursor: pointer; text-align: center; text-decoration: none; }
  button:hover, .button:hover { background: #256628; }
  .error { background: #fdecea; color: #8a1c1c; border: 1px solid #f5c2c0; border-radius: 8px; padding: 10px 12px; margin-bottom: 8px; }
  .cancel { text-align: center; margin: 16px 0 0; }
  .link { color: #2e7d32; }
  .cards { margin-top: 22px; font-size: 0.88rem; color: #52606d; background: #f8fafc; border-radius: 8px; padding: 12px 14px; }
  .cards ul { margin: 6px 0 0; padding-left: 18px; }
  code { font-size: 0.95em; }
</style>
</head>
<body>
<div class="banner" role="note">Test mode: no real charge</div>
<main><div class="card"><div class="brand">Botsmith</div>${body}</div></main>
</body>
</html>`;
}

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
