/**
 * A local stand-in for Stripe's API (the parts Homesitter's billing uses), on 127.0.0.1, for the server's
 * tests and the browser tests (apps/web/e2e start it in their global setup, so nothing here imports Vitest).
 * It checks what the official SDK sends (bearer secret key, form encoding, `Stripe-Version`, idempotency
 * keys where used), keeps customers (with their balance: credit from an invoice whose total is negative pays
 * the next invoice; balance transactions), two prices and a product, Checkout sessions, subscriptions (the
 * current period on the subscription item, as API versions since 2025-03-31 have it), invoices with their
 * lines (a plan change: a proration credit for the unused old period, then the new price), invoice payments,
 * payment intents, charges, refunds (capped at what is left on the charge) and portal sessions, and sends
 * webhooks signed with the SDK's
 * `generateTestHeaderString` to `webhookUrl` when state changes. It serves the hosted Checkout page too:
 * `${url}/checkout/<sessionId>`, with a Pay button and a Cancel link.
 *
 * A month is 30 days and a year 365 days of its clock (`now`, moved on with `advance`).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface FakeStripeOptions {
  /** Where webhooks go (e.g. http://127.0.0.1:8080/api/stripe/webhook); without one they are only recorded. */
  webhookUrl?: string;
  /** `STRIPE_WEBHOOK_SECRET` of the server under test (whsec_…). */
  webhookSecret: string;
  /** The fake's clock in milliseconds (default `Date.now`); `advance` moves it on. */
  now?: () => number;
  /** The secret key the server must send (default: a fixed `sk_test_…`). */
  secretKey?: string;
}

export interface FakeStripeRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
}

export interface FakeRefund {
  id: string;
  payment_intent: string;
  amount: number;
  currency: string;
  metadata: Record<string, string>;
}

export interface FakeWebhookDelivery {
  id: string;
  type: string;
  status: number | 'not_sent' | 'failed';
}

export interface FakeStripe {
  /** http://127.0.0.1:PORT: `STRIPE_API_BASE`. */
  url: string;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  prices: { monthly: string; yearly: string };
  /** Can be set after start (the server's port is often known only later). */
  webhookUrl: string | undefined;
  /** Every API call received, in order. */
  requests: FakeStripeRequest[];
  refunds: FakeRefund[];
  deliveries: FakeWebhookDelivery[];
  /** The fake's clock, in milliseconds. */
  now(): number;
  /** Moves the clock on. */
  advance(seconds: number): void;
  /** The next API call whose `METHOD /v1/path` starts with `prefix` fails with `status` (a Stripe api_error). */
  failNext(prefix: string, status?: number): void;
  /** Pays a Checkout session (as the Pay button does) and waits until its webhooks were answered. */
  completeCheckout(sessionId: string): Promise<{ redirect: string; subscriptionId: string }>;
  /** The card of an in-app payment went through: invoice paid, subscription active, webhooks answered. */
  succeedPaymentIntent(id: string): Promise<void>;
  /**
   * The subscription's next period is invoiced at its end (the clock is not moved): paid (credit balance
   * first, then the card) or, with `'failed'`, the card is declined and the subscription goes past_due.
   */
  renew(subscriptionId: string, outcome?: 'paid' | 'failed'): Promise<void>;
  /** The customer's balance (negative: credit for the next invoices). */
  customerBalance(customerId: string): number;
  /** Sends an event already sent again (same id), as Stripe does on a retry. */
  resend(eventId: string): Promise<number | 'not_sent' | 'failed'>;
  /** Resolves when every webhook queued so far was answered. */
  idle(): Promise<void>;
  subscription(id: string): Record<string, unknown> | undefined;
  close(): Promise<void>;
}

const MONTH = 30 * 86_400;
const YEAR = 365 * 86_400;
const API_VERSION = Stripe.API_VERSION;

type Obj = Record<string, unknown>;

/** Stripe's form encoding (`items[0][price]=…`, `expand[0]=…`, `metadata[k]=…`) into nested values. */
function parseForm(text: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p, i) => p !== '' || i === 0);
    let node: Obj = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const name = part === '' ? String(Object.keys(node).length) : part;
      if (last) node[name] = value;
      else node = (node[name] ??= {}) as Obj;
    });
  }
  return arrays(root) as Obj;
}

function arrays(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as Obj;
  const keys = Object.keys(obj);
  const mapped = Object.fromEntries(keys.map((k) => [k, arrays(obj[k])]));
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => mapped[k]);
  return mapped;
}

/** A form field as text ('' when absent or not text). */
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

class StripeFail extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}
const missing = (what: string, value: unknown) =>
  new StripeFail(404, 'invalid_request_error', `No such ${what}: '${String(value)}'`, 'resource_missing');
const invalid = (message: string) => new StripeFail(400, 'invalid_request_error', message);

interface Price {
  id: string;
  amount: number;
  currency: string;
  interval: 'month' | 'year';
}
interface Customer {
  id: string;
  email: string | undefined;
  metadata: Obj;
  /** Negative is credit, applied to the next invoices. */
  balance: number;
  currency: string | null;
  created: number;
}
interface Session {
  id: string;
  customer: string;
  clientReferenceId: string | undefined;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid';
  subscription: string | null;
  metadata: Obj;
  created: number;
}
interface Subscription {
  id: string;
  customer: string;
  status: string;
  priceId: string;
  itemId: string;
  periodStart: number;
  periodEnd: number;
  canceledAt: number | null;
  endedAt: number | null;
  latestInvoice: string | null;
  metadata: Obj;
  created: number;
}
interface InvoiceLine {
  id: string;
  amount: number;
  priceId: string;
  itemId: string;
  proration: boolean;
  periodStart: number;
  periodEnd: number;
}
interface Invoice {
  id: string;
  customer: string;
  subscription: string;
  status: 'open' | 'paid';
  lines: InvoiceLine[];
  /** Sum of the lines. */
  total: number;
  /** The customer's balance before and after this invoice (credit negative). */
  startingBalance: number;
  endingBalance: number;
  amountDue: number;
  amountPaid: number;
  currency: string;
  periodStart: number;
  periodEnd: number;
  paymentIntent: string | null;
  created: number;
  seq: number;
}
interface PaymentIntent {
  id: string;
  customer: string;
  amount: number;
  currency: string;
  status: string;
  clientSecret: string;
  invoice: string | null;
  charge: string | null;
  created: number;
}
interface Charge {
  id: string;
  customer: string;
  paymentIntent: string;
  amount: number;
  amountRefunded: number;
  currency: string;
  created: number;
}

export async function startFakeStripe(options: FakeStripeOptions): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? 'sk_test_homesitter_fake_0123456789';
  const publishableKey = 'pk_test_homesitter_fake_0123456789';
  const signer = new Stripe(secretKey);
  const clock = options.now ?? (() => Date.now());
  let offsetMs = 0;
  const nowMs = () => clock() + offsetMs;
  const nowS = () => Math.floor(nowMs() / 1000);

  const product = { id: 'prod_test_homesitter', name: 'Homesitter' };
  const prices = new Map<string, Price>([
    ['price_test_monthly', { id: 'price_test_monthly', amount: 900, currency: 'usd', interval: 'month' }],
    ['price_test_yearly', { id: 'price_test_yearly', amount: 9000, currency: 'usd', interval: 'year' }],
  ]);
  const customers = new Map<string, Customer>();
  const sessions = new Map<string, Session>();
  const subscriptions = new Map<string, Subscription>();
  const invoices = new Map<string, Invoice>();
  const intents = new Map<string, PaymentIntent>();
  const charges = new Map<string, Charge>();
  const refunds: FakeRefund[] = [];
  const requests: FakeStripeRequest[] = [];
  const deliveries: FakeWebhookDelivery[] = [];
  const sentEvents = new Map<string, string>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const failures: { prefix: string; status: number }[] = [];
  let invoiceSeq = 0;
  let queue: Promise<void> = Promise.resolve();
  let baseUrl = '';

  const periodOf = (price: Price) => (price.interval === 'year' ? YEAR : MONTH);
  const requirePrice = (priceId: unknown) => {
    const price = prices.get(String(priceId));
    if (!price) throw missing('price', priceId);
    return price;
  };

  // ---- JSON renderings, in the shape of API version 2025-03-31 and later ----
  const priceJson = (p: Price) => ({
    id: p.id,
    object: 'price',
    active: true,
    currency: p.currency,
    unit_amount: p.amount,
    product: product.id,
    recurring: { interval: p.interval, interval_count: 1, usage_type: 'licensed' },
    type: 'recurring',
    livemode: false,
  });
  const customerJson = (c: Customer) => ({
    id: c.id,
    object: 'customer',
    email: c.email ?? null,
    metadata: c.metadata,
    balance: c.balance,
    currency: c.currency,
    created: c.created,
    livemode: false,
  });
  const sessionJson = (s: Session) => ({
    id: s.id,
    object: 'checkout.session',
    mode: 'subscription',
    customer: s.customer,
    client_reference_id: s.clientReferenceId ?? null,
    status: s.status,
    payment_status: s.paymentStatus,
    subscription: s.subscription,
    success_url: s.successUrl,
    cancel_url: s.cancelUrl,
    amount_total: prices.get(s.priceId)?.amount ?? 0,
    currency: prices.get(s.priceId)?.currency ?? 'usd',
    url: s.status === 'open' ? `${baseUrl}/checkout/${s.id}` : null,
    metadata: s.metadata,
    created: s.created,
    livemode: false,
  });
  function invoiceJson(i: Invoice, expand: string[] = []): Obj {
    const pi = i.paymentIntent ? intents.get(i.paymentIntent) : undefined;
    return {
      id: i.id,
      object: 'invoice',
      customer: i.customer,
      status: i.status,
      subtotal: i.total,
      total: i.total,
      starting_balance: i.startingBalance,
      ending_balance: i.status === 'paid' ? i.endingBalance : null,
      amount_due: i.amountDue,
      amount_paid: i.amountPaid,
      amount_remaining: i.amountDue - i.amountPaid,
      currency: i.currency,
      period_start: i.periodStart,
      period_end: i.periodEnd,
      created: i.created,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: i.subscription, metadata: {} },
      },
      lines: {
        object: 'list',
        data: i.lines.map((l) => ({
          id: l.id,
          object: 'line_item',
          amount: l.amount,
          subtotal: l.amount,
          currency: i.currency,
          description: null,
          discount_amounts: [],
          discountable: !l.proration,
          discounts: [],
          invoice: i.id,
          metadata: {},
          quantity: 1,
          period: { start: l.periodStart, end: l.periodEnd },
          pricing: {
            type: 'price_details',
            price_details: { price: l.priceId, product: product.id },
            unit_amount_decimal: String(l.amount),
          },
          parent: {
            type: 'subscription_item_details',
            invoice_item_details: null,
            subscription_item_details: {
              invoice_item: null,
              proration: l.proration,
              proration_details: null,
              subscription: i.subscription,
              subscription_item: l.itemId,
            },
          },
          livemode: false,
        })),
        has_more: false,
        url: `/v1/invoices/${i.id}/lines`,
      },
      ...(expand.includes('confirmation_secret')
        ? {
            confirmation_secret: pi ? { client_secret: pi.clientSecret, type: 'payment_intent' } : null,
          }
        : {}),
      ...(expand.includes('payments')
        ? {
            payments: {
              object: 'list',
              data: pi ? [invoicePaymentJson(i, pi)] : [],
              has_more: false,
              url: '/v1/invoice_payments',
            },
          }
        : {}),
      livemode: false,
    };
  }
  function invoicePaymentJson(i: Invoice, pi: PaymentIntent, expandInvoice = false): Obj {
    return {
      id: `inpay_${pi.id.slice(3)}`,
      object: 'invoice_payment',
      amount_paid: pi.status === 'succeeded' ? pi.amount : null,
      amount_requested: pi.amount,
      currency: pi.currency,
      created: pi.created,
      invoice: expandInvoice ? invoiceJson(i) : i.id,
      is_default: true,
      livemode: false,
      payment: { type: 'payment_intent', payment_intent: pi.id },
      status: pi.status === 'succeeded' ? 'paid' : 'open',
      status_transitions: { canceled_at: null, paid_at: pi.status === 'succeeded' ? pi.created : null },
    };
  }
  function subscriptionJson(s: Subscription, expand: string[] = []): Obj {
    const price = prices.get(s.priceId)!;
    const latest = s.latestInvoice ? invoices.get(s.latestInvoice) : undefined;
    const nested = expand.filter((e) => e.startsWith('latest_invoice.')).map((e) => e.slice(15));
    return {
      id: s.id,
      object: 'subscription',
      customer: s.customer,
      status: s.status,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: s.canceledAt,
      ended_at: s.endedAt,
      created: s.created,
      start_date: s.created,
      currency: price.currency,
      metadata: s.metadata,
      latest_invoice:
        latest && (expand.includes('latest_invoice') || nested.length > 0)
          ? invoiceJson(latest, nested)
          : (s.latestInvoice ?? null),
      items: {
        object: 'list',
        data: [
          {
            id: s.itemId,
            object: 'subscription_item',
            price: priceJson(price),
            quantity: 1,
            subscription: s.id,
            current_period_start: s.periodStart,
            current_period_end: s.periodEnd,
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${s.id}`,
      },
      livemode: false,
    };
  }
  const intentJson = (p: PaymentIntent) => ({
    id: p.id,
    object: 'payment_intent',
    amount: p.amount,
    currency: p.currency,
    customer: p.customer,
    status: p.status,
    client_secret: p.clientSecret,
    latest_charge: p.charge,
    created: p.created,
    livemode: false,
  });
  const chargeJson = (c: Charge) => ({
    id: c.id,
    object: 'charge',
    amount: c.amount,
    amount_captured: c.amount,
    amount_refunded: c.amountRefunded,
    refunded: c.amountRefunded >= c.amount,
    currency: c.currency,
    customer: c.customer,
    payment_intent: c.paymentIntent,
    paid: true,
    status: 'succeeded',
    created: c.created,
    livemode: false,
  });
  const refundJson = (r: FakeRefund) => ({
    ...r,
    object: 'refund',
    status: 'succeeded',
    charge: intents.get(r.payment_intent)?.charge ?? null,
    reason: 'requested_by_customer',
    created: nowS(),
  });
  const list = (url: string, data: unknown[]) => ({ object: 'list', data, has_more: false, url });

  // ---- webhooks ----
  function emit(type: string, object: unknown): Promise<void> {
    const event = {
      id: id('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: nowS(),
      type,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    const payload = JSON.stringify(event);
    sentEvents.set(event.id, payload);
    const delivery: FakeWebhookDelivery = { id: event.id, type, status: 'not_sent' };
    deliveries.push(delivery);
    queue = queue.then(async () => {
      delivery.status = await post(payload);
    });
    return queue;
  }

  async function post(payload: string): Promise<number | 'not_sent' | 'failed'> {
    const target = fake.webhookUrl;
    if (!target) return 'not_sent';
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: options.webhookSecret });
    try {
      const res = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
        body: payload,
      });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 'failed';
    }
  }

  // ---- state changes ----
  type NewLine = Omit<InvoiceLine, 'id' | 'itemId'>;

  /**
   * A finalized invoice of the subscription: its lines, the customer's balance applied (credit lowers what
   * is due; a negative total adds credit), and a payment intent for what is due.
   */
  function openInvoice(sub: Subscription, lines: NewLine[], currency: string): Invoice {
    const customer = customers.get(sub.customer)!;
    const total = lines.reduce((sum, l) => sum + l.amount, 0);
    const startingBalance = customer.balance;
    const applied = total + startingBalance;
    const invoice: Invoice = {
      id: id('in'),
      customer: sub.customer,
      subscription: sub.id,
      status: 'open',
      lines: lines.map((l) => ({ ...l, id: id('il'), itemId: sub.itemId })),
      total,
      startingBalance,
      endingBalance: Math.min(applied, 0),
      amountDue: Math.max(applied, 0),
      amountPaid: 0,
      currency,
      periodStart: sub.periodStart,
      periodEnd: sub.periodEnd,
      paymentIntent: null,
      created: nowS(),
      seq: ++invoiceSeq,
    };
    customer.balance = invoice.endingBalance;
    customer.currency ??= currency;
    if (invoice.amountDue > 0) {
      const pi: PaymentIntent = {
        id: id('pi'),
        customer: sub.customer,
        amount: invoice.amountDue,
        currency,
        status: 'requires_payment_method',
        clientSecret: '',
        invoice: invoice.id,
        charge: null,
        created: nowS(),
      };
      pi.clientSecret = `${pi.id}_secret_${randomBytes(8).toString('hex')}`;
      intents.set(pi.id, pi);
      invoice.paymentIntent = pi.id;
    }
    invoices.set(invoice.id, invoice);
    sub.latestInvoice = invoice.id;
    return invoice;
  }

  /** The invoice is paid: by the card on file (payment intent succeeded, charge made), or by credit alone. */
  function settle(invoice: Invoice): Invoice {
    const pi = invoice.paymentIntent ? intents.get(invoice.paymentIntent) : undefined;
    if (pi && pi.status !== 'succeeded') {
      pi.status = 'succeeded';
      chargeFor(pi);
    }
    invoice.status = 'paid';
    invoice.amountPaid = invoice.amountDue;
    return invoice;
  }

  /** The line of a price for the subscription's whole current period. */
  const periodLine = (sub: Subscription, price: Price): NewLine => ({
    amount: price.amount,
    priceId: price.id,
    proration: false,
    periodStart: sub.periodStart,
    periodEnd: sub.periodEnd,
  });

  function chargeFor(pi: PaymentIntent): void {
    const charge: Charge = {
      id: id('ch'),
      customer: pi.customer,
      paymentIntent: pi.id,
      amount: pi.amount,
      amountRefunded: 0,
      currency: pi.currency,
      created: nowS(),
    };
    charges.set(charge.id, charge);
    pi.charge = charge.id;
  }

  function newSubscription(customer: string, price: Price, status: string, metadata: Obj): Subscription {
    const start = nowS();
    const sub: Subscription = {
      id: id('sub'),
      customer,
      status,
      priceId: price.id,
      itemId: id('si'),
      periodStart: start,
      periodEnd: start + periodOf(price),
      canceledAt: null,
      endedAt: null,
      latestInvoice: null,
      metadata,
      created: start,
    };
    subscriptions.set(sub.id, sub);
    return sub;
  }

  async function completeCheckout(sessionId: string) {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`fake stripe: no checkout session ${sessionId}`);
    if (session.status !== 'open')
      throw new Error(`fake stripe: checkout session ${sessionId} is ${session.status}`);
    const price = prices.get(session.priceId)!;
    const sub = newSubscription(session.customer, price, 'active', session.metadata);
    const invoice = settle(openInvoice(sub, [periodLine(sub, price)], price.currency));
    session.status = 'complete';
    session.paymentStatus = 'paid';
    session.subscription = sub.id;
    void emit('checkout.session.completed', sessionJson(session));
    void emit('customer.subscription.created', subscriptionJson(sub));
    await emit('invoice.paid', invoiceJson(invoice));
    return {
      redirect: session.successUrl.replace('{CHECKOUT_SESSION_ID}', session.id),
      subscriptionId: sub.id,
    };
  }

  async function renew(subscriptionId: string, outcome: 'paid' | 'failed' = 'paid') {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`fake stripe: no subscription ${subscriptionId}`);
    const price = prices.get(sub.priceId)!;
    sub.periodStart = sub.periodEnd;
    sub.periodEnd = sub.periodStart + periodOf(price);
    const invoice = openInvoice(sub, [periodLine(sub, price)], price.currency);
    if (outcome === 'paid' || !invoice.paymentIntent) {
      settle(invoice);
      void emit('invoice.paid', invoiceJson(invoice));
      await emit('customer.subscription.updated', subscriptionJson(sub));
      return;
    }
    // The card was declined: the invoice stays open and the subscription is past due.
    sub.status = 'past_due';
    void emit('invoice.payment_failed', invoiceJson(invoice));
    await emit('customer.subscription.updated', subscriptionJson(sub));
  }

  async function succeedPaymentIntent(piId: string) {
    const pi = intents.get(piId);
    if (!pi) throw new Error(`fake stripe: no payment intent ${piId}`);
    pi.status = 'succeeded';
    chargeFor(pi);
    const invoice = pi.invoice ? invoices.get(pi.invoice) : undefined;
    if (!invoice) return;
    invoice.status = 'paid';
    invoice.amountPaid = invoice.amountDue;
    const sub = subscriptions.get(invoice.subscription);
    if (!sub) return;
    sub.status = 'active';
    void emit('invoice.paid', invoiceJson(invoice));
    await emit('customer.subscription.updated', subscriptionJson(sub));
  }

  // ---- the API ----
  function api(method: string, path: string, p: Obj, idempotencyKey: string | undefined): unknown {
    const expand = Array.isArray(p.expand) ? (p.expand as string[]) : [];
    const seg = path.split('/').filter(Boolean); // ['v1', …]
    const route = `${method} /${seg.slice(1, 3).join('/')}`;
    const [, , a] = seg;

    if (method === 'GET' && seg[1] === 'prices' && a) return priceJson(requirePrice(a));

    if (route === 'POST /customers') {
      const c: Customer = {
        id: id('cus'),
        email: typeof p.email === 'string' ? p.email : undefined,
        metadata: (p.metadata as Obj | undefined) ?? {},
        balance: 0,
        currency: null,
        created: nowS(),
      };
      customers.set(c.id, c);
      return customerJson(c);
    }
    if (method === 'POST' && seg[1] === 'customers' && a && seg[3] === 'balance_transactions') {
      const c = customers.get(a);
      if (!c) throw missing('customer', a);
      const amount = Number(p.amount);
      if (!Number.isInteger(amount) || amount === 0) throw invalid('amount must be a non-zero integer');
      const currency = str(p.currency);
      if (!currency) throw invalid('Missing required param: currency.');
      if (c.currency !== null && c.currency !== currency)
        throw invalid(`The customer's balance is in ${c.currency}`);
      c.currency = currency;
      c.balance += amount;
      return {
        id: id('cbtxn'),
        object: 'customer_balance_transaction',
        amount,
        currency,
        customer: c.id,
        description: typeof p.description === 'string' ? p.description : null,
        ending_balance: c.balance,
        type: 'adjustment',
        metadata: {},
        created: nowS(),
        livemode: false,
      };
    }
    if (method === 'GET' && seg[1] === 'customers' && a) {
      const c = customers.get(a);
      if (!c) throw missing('customer', a);
      return customerJson(c);
    }

    if (route === 'POST /checkout/sessions' && seg.length === 3) {
      if (p.mode !== 'subscription') throw invalid('mode must be subscription');
      const customer = str(p.customer);
      if (!customers.has(customer)) throw missing('customer', customer);
      const items = p.line_items as { price: string; quantity: string }[] | undefined;
      const price = requirePrice(items?.[0]?.price);
      for (const field of ['success_url', 'cancel_url'] as const)
        if (typeof p[field] !== 'string' || !String(p[field]).includes('{CHECKOUT_SESSION_ID}'))
          throw invalid(`${field} must hold {CHECKOUT_SESSION_ID}`);
      const s: Session = {
        id: id('cs_test'),
        customer,
        clientReferenceId: typeof p.client_reference_id === 'string' ? p.client_reference_id : undefined,
        priceId: price.id,
        successUrl: String(p.success_url),
        cancelUrl: String(p.cancel_url),
        status: 'open',
        paymentStatus: 'unpaid',
        subscription: null,
        metadata: ((p.subscription_data as Obj | undefined)?.metadata as Obj | undefined) ?? {},
        created: nowS(),
      };
      sessions.set(s.id, s);
      return sessionJson(s);
    }
    if (method === 'GET' && seg[1] === 'checkout' && seg[2] === 'sessions' && seg[3]) {
      const s = sessions.get(seg[3]);
      if (!s) throw missing('checkout.session', seg[3]);
      return sessionJson(s);
    }

    if (seg[1] === 'subscriptions') {
      if (method === 'GET' && !a) {
        const all = [...subscriptions.values()]
          .filter((s) => s.customer === p.customer)
          .filter((s) => p.status === 'all' || s.status === (p.status ?? s.status))
          .sort((x, y) => y.created - x.created);
        return list(
          '/v1/subscriptions',
          all.map((s) => subscriptionJson(s, expand)),
        );
      }
      if (method === 'POST' && !a) {
        const customer = str(p.customer);
        if (!customers.has(customer)) throw missing('customer', customer);
        const items = p.items as { price: string }[] | undefined;
        const price = requirePrice(items?.[0]?.price);
        if (p.payment_behavior !== 'default_incomplete') throw invalid('expected default_incomplete');
        const sub = newSubscription(customer, price, 'incomplete', (p.metadata as Obj | undefined) ?? {});
        const invoice = openInvoice(sub, [periodLine(sub, price)], price.currency);
        if (!invoice.paymentIntent) throw invalid('the fake needs an amount due on a first invoice');
        void emit('customer.subscription.created', subscriptionJson(sub));
        return subscriptionJson(sub, expand);
      }
      const sub = a ? subscriptions.get(a) : undefined;
      if (!sub) throw missing('subscription', a);
      if (method === 'GET') return subscriptionJson(sub, expand);
      if (method === 'DELETE') {
        if (sub.status === 'canceled') throw invalid(`This subscription is already canceled: ${sub.id}`);
        sub.status = 'canceled';
        sub.canceledAt = nowS();
        sub.endedAt = sub.canceledAt;
        void emit('customer.subscription.deleted', subscriptionJson(sub));
        return subscriptionJson(sub, expand);
      }
      if (method === 'POST') {
        if (sub.status === 'canceled') throw invalid('A canceled subscription cannot be updated');
        const items = p.items as { id?: string; price?: string }[] | undefined;
        const item = items?.[0];
        if (!item?.price) return subscriptionJson(sub, expand);
        if (item.id !== sub.itemId) throw invalid('items[0][id] must be the subscription item');
        if (p.proration_behavior !== 'always_invoice' && p.proration_behavior !== 'create_prorations')
          throw invalid('expected a proration behaviour');
        const from = prices.get(sub.priceId)!;
        const to = requirePrice(item.price);
        const at = nowS();
        const total = sub.periodEnd - sub.periodStart;
        const left = Math.max(sub.periodEnd - at, 0);
        // Unused time on the old price, credited; then the new price.
        const lines: NewLine[] = [
          {
            amount: -Math.floor((from.amount * left) / total),
            priceId: from.id,
            proration: true,
            periodStart: at,
            periodEnd: sub.periodEnd,
          },
        ];
        if (to.interval !== from.interval) {
          // A new interval starts a new period now (the billing cycle anchor moves), invoiced in full.
          sub.periodStart = at;
          sub.periodEnd = at + periodOf(to);
          sub.priceId = to.id;
          lines.push(periodLine(sub, to));
        } else {
          lines.push({
            amount: Math.floor((to.amount * left) / total),
            priceId: to.id,
            proration: true,
            periodStart: at,
            periodEnd: sub.periodEnd,
          });
          sub.priceId = to.id;
        }
        const invoice = settle(openInvoice(sub, lines, to.currency));
        void emit('customer.subscription.updated', subscriptionJson(sub));
        void emit('invoice.paid', invoiceJson(invoice));
        return subscriptionJson(sub, expand);
      }
    }

    if (method === 'GET' && seg[1] === 'payment_intents' && a) {
      const pi = intents.get(a);
      if (!pi) throw missing('payment_intent', a);
      return intentJson(pi);
    }

    if (route === 'GET /invoice_payments') {
      const payment = p.payment as { type?: string; payment_intent?: string } | undefined;
      const pi = payment?.payment_intent ? intents.get(payment.payment_intent) : undefined;
      const invoice = pi?.invoice ? invoices.get(pi.invoice) : undefined;
      return list(
        '/v1/invoice_payments',
        pi && invoice ? [invoicePaymentJson(invoice, pi, expand.includes('data.invoice'))] : [],
      );
    }

    if (route === 'GET /invoices') {
      const nested = expand.filter((e) => e.startsWith('data.')).map((e) => e.slice(5));
      const found = [...invoices.values()]
        .filter((i) => !p.subscription || i.subscription === p.subscription)
        .filter((i) => !p.status || i.status === p.status)
        .sort((x, y) => y.seq - x.seq)
        .slice(0, Number(p.limit ?? 10));
      return list(
        '/v1/invoices',
        found.map((i) => invoiceJson(i, nested)),
      );
    }

    if (route === 'POST /refunds') {
      if (!idempotencyKey) throw invalid('refunds need an Idempotency-Key');
      const pi = intents.get(str(p.payment_intent));
      if (!pi || pi.status !== 'succeeded') throw missing('payment_intent', p.payment_intent);
      const charge = pi.charge ? charges.get(pi.charge) : undefined;
      if (!charge) throw invalid('nothing was charged');
      const amount = p.amount === undefined ? charge.amount - charge.amountRefunded : Number(p.amount);
      if (!Number.isInteger(amount) || amount <= 0) throw invalid('amount must be a positive integer');
      if (amount > charge.amount - charge.amountRefunded)
        throw new StripeFail(
          400,
          'invalid_request_error',
          'Refund is greater than unrefunded amount',
          'amount_too_large',
        );
      charge.amountRefunded += amount;
      const refund: FakeRefund = {
        id: id('re'),
        payment_intent: pi.id,
        amount,
        currency: pi.currency,
        metadata: (p.metadata as Record<string, string> | undefined) ?? {},
      };
      refunds.push(refund);
      void emit('charge.refunded', chargeJson(charge));
      return refundJson(refund);
    }
    if (route === 'GET /refunds') {
      const found = refunds
        .filter((r) => !p.payment_intent || r.payment_intent === p.payment_intent)
        .reverse()
        .slice(0, Number(p.limit ?? 10));
      return list('/v1/refunds', found.map(refundJson));
    }

    if (route === 'POST /billing_portal/sessions' || (method === 'POST' && seg[1] === 'billing_portal')) {
      const customer = str(p.customer);
      if (!customers.has(customer)) throw missing('customer', customer);
      if (typeof p.return_url !== 'string') throw invalid('return_url is required');
      const sid = id('bps');
      return {
        id: sid,
        object: 'billing_portal.session',
        customer,
        return_url: p.return_url,
        url: `${baseUrl}/portal/${sid}`,
        created: nowS(),
        livemode: false,
      };
    }

    throw new StripeFail(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
  }

  // ---- the hosted Checkout page ----
  function checkoutPage(session: Session): string {
    const price = prices.get(session.priceId)!;
    const amount = `$${(price.amount / 100).toFixed(2)}`;
    const cancel = session.cancelUrl.replace('{CHECKOUT_SESSION_ID}', session.id);
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Stripe Checkout</title>
<link rel="icon" href="data:,"></head><body><main><h1>Homesitter</h1>
<p id="amount">${amount} per ${price.interval}</p>
<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay</button></form>
<a href="${cancel.replace(/"/g, '&quot;')}">Cancel</a></main></body></html>`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const json = (status: number, value: unknown, extra: Record<string, string> = {}): void => {
      res
        .writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...extra })
        .end(JSON.stringify(value));
    };
    const fail = (e: StripeFail): void =>
      json(
        e.status,
        { error: { type: e.type, message: e.message, ...(e.code ? { code: e.code } : {}) } },
        { 'stripe-should-retry': 'false' },
      );

    const page = /^\/checkout\/([^/]+)(\/pay)?$/.exec(url.pathname);
    if (page) {
      const session = sessions.get(page[1]!);
      if (!session) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('No such session');
      if (method === 'GET' && !page[2]) {
        if (session.status !== 'open')
          return void res.writeHead(410, { 'content-type': 'text/plain' }).end('This session is over');
        return void res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(checkoutPage(session));
      }
      if (method === 'POST' && page[2]) {
        const { redirect } = await completeCheckout(session.id);
        return void res.writeHead(303, { location: redirect }).end();
      }
    }
    if (url.pathname.startsWith('/portal/'))
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Fake billing portal</p>');
    if (!url.pathname.startsWith('/v1/')) return void res.writeHead(404).end();

    const auth = req.headers.authorization;
    if (auth !== `Bearer ${secretKey}`)
      return fail(new StripeFail(401, 'invalid_request_error', 'Invalid API Key provided'));
    if (
      method === 'POST' &&
      body &&
      !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')
    )
      return fail(invalid('Expected a form-encoded body'));
    const params = method === 'GET' || method === 'DELETE' ? parseForm(url.search.slice(1)) : parseForm(body);
    const idempotencyKey =
      typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    const stripeVersion =
      typeof req.headers['stripe-version'] === 'string' ? req.headers['stripe-version'] : undefined;
    requests.push({ method, path: url.pathname, params, idempotencyKey, stripeVersion });
    if (stripeVersion !== API_VERSION)
      return fail(invalid(`Unexpected Stripe-Version ${stripeVersion ?? ''}`));

    const signature = `${method} ${url.pathname}`;
    const failure = failures.findIndex((f) => signature.startsWith(f.prefix));
    if (failure >= 0) {
      const [f] = failures.splice(failure, 1);
      return fail(new StripeFail(f!.status, 'api_error', 'Something went wrong on the fake (failNext)'));
    }
    // A repeated POST with the same key answers what the first answered (as Stripe does for 24 h).
    const cacheKey = method === 'POST' && idempotencyKey ? `${url.pathname} ${idempotencyKey}` : undefined;
    const cached = cacheKey ? idempotent.get(cacheKey) : undefined;
    if (cached) return json(cached.status, cached.body, { 'idempotent-replayed': 'true' });
    try {
      const value = api(method, url.pathname, params, idempotencyKey);
      if (cacheKey) idempotent.set(cacheKey, { status: 200, body: value });
      return json(200, value);
    } catch (err) {
      if (err instanceof StripeFail) return fail(err);
      throw err;
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  const fake: FakeStripe = {
    url: baseUrl,
    secretKey,
    publishableKey,
    webhookSecret: options.webhookSecret,
    prices: { monthly: 'price_test_monthly', yearly: 'price_test_yearly' },
    webhookUrl: options.webhookUrl,
    requests,
    refunds,
    deliveries,
    now: nowMs,
    advance(seconds) {
      offsetMs += seconds * 1000;
    },
    failNext(prefix, status = 500) {
      failures.push({ prefix, status });
    },
    completeCheckout,
    succeedPaymentIntent,
    renew,
    customerBalance: (cid) => {
      const c = customers.get(cid);
      if (!c) throw new Error(`fake stripe: no customer ${cid}`);
      return c.balance;
    },
    async resend(eventId) {
      const payload = sentEvents.get(eventId);
      if (!payload) throw new Error(`fake stripe: no event ${eventId}`);
      await queue;
      return post(payload);
    },
    idle: async () => {
      for (;;) {
        const current = queue;
        await current;
        if (current === queue) return;
      }
    },
    subscription: (sid) => {
      const s = subscriptions.get(sid);
      return s ? subscriptionJson(s) : undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
