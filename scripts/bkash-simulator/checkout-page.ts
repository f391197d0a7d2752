/**
 * The simulator's checkout pages (docs/rules/bkash.md#6-the-simulator): what bKash's payment page shows the player,
 * one step per screen — wallet number, verification code, PIN — then back to the merchant. Plain server-rendered
 * HTML: forms post to the simulator, no script, no inline style (the stylesheet is checkout.css), every value escaped.
 * English with the Bengali below it.
 */
import { toDigits } from '../../shared/dates.ts';
import { formatTaka } from '../../shared/money.ts';
import { escapeHtml } from '../../server/http/html.ts';
import { maskWallet } from '../../shared/payments/agreements.ts';

/** A text in both languages. */
export type Bilingual = { en: string; bn: string };

export type CheckoutScreen =
  | { kind: 'wallet'; notice: Bilingual | null }
  | { kind: 'code'; wallet: string; notice: Bilingual | null }
  | { kind: 'pin'; notice: Bilingual | null }
  /** The end: where the browser goes back to (the merchant's callback), and why. */
  | { kind: 'done'; outcome: 'success' | 'failure' | 'cancel'; notice: Bilingual; returnUrl: string };

export type CheckoutView = {
  /** The simulator's path as the browser reaches it (the router's mount path, '' at the root). */
  base: string;
  paymentID: string;
  amount: string;
  invoice: string;
  screen: CheckoutScreen;
  /**
   * An agreement's creation (the player approves later payments with his PIN only), or a payment with an agreement
   * (from the agreement's wallet); null for a payment without one (docs/rules/bkash.md#7-agreements).
   */
  agreement?: { kind: 'create' } | { kind: 'pay'; wallet: string } | null;
};

/** The sandbox values, shown on every screen so that a newcomer can pay. */
export type SandboxValues = { wallet: string; code: string; pin: string };

const MERCHANT: Bilingual = { en: 'Bhagya', bn: 'ভাগ্য' };

/** The texts of the pages. Numbers in a Bengali text are written in Bengali digits (docs/rules/bengali.md#3-numbers-in-messages). */
export const TEXTS = {
  title: { en: 'bKash checkout', bn: 'বিকাশ পেমেন্ট' },
  test: { en: 'Test payment: no money moves', bn: 'পরীক্ষামূলক পেমেন্ট: কোনো টাকা কাটা হবে না' },
  merchant: { en: 'Merchant', bn: 'মার্চেন্ট' },
  invoice: { en: 'Invoice', bn: 'ইনভয়েস' },
  amount: { en: 'Amount', bn: 'পরিমাণ' },
  wallet: { en: 'Your bKash account number', bn: 'আপনার বিকাশ অ্যাকাউন্ট নম্বর' },
  terms: { en: 'By pressing Confirm you agree to the terms and conditions.', bn: '“নিশ্চিত করুন” চাপলে আপনি শর্তাবলিতে সম্মত হচ্ছেন।' },
  code: { en: 'Verification code', bn: 'যাচাই কোড' },
  pin: { en: 'Your bKash PIN', bn: 'আপনার বিকাশ পিন' },
  confirm: { en: 'Confirm', bn: 'নিশ্চিত করুন' },
  cancel: { en: 'Cancel', bn: 'বাতিল করুন' },
  back: { en: 'Return to Bhagya', bn: 'ভাগ্য-এ ফিরে যান' },
  soon: { en: 'You will be taken back in a few seconds.', bn: 'কয়েক সেকেন্ডের মধ্যে আপনাকে ফিরিয়ে নেওয়া হবে।' },
  walletInvalid: {
    en: 'Enter an 11-digit bKash account number that starts with 01.',
    bn: '০১ দিয়ে শুরু ১১ অঙ্কের বিকাশ অ্যাকাউন্ট নম্বর দিন।',
  },
  insufficientBalance: { en: 'Insufficient balance.', bn: 'আপনার অ্যাকাউন্টে পর্যাপ্ত ব্যালেন্স নেই।' },
  codeLimit: { en: 'Wrong verification code three times.', bn: 'তিনবার ভুল যাচাই কোড দেওয়া হয়েছে।' },
  pinLimit: { en: 'Wrong PIN three times.', bn: 'তিনবার ভুল পিন দেওয়া হয়েছে।' },
  expired: { en: 'This payment has expired.', bn: 'এই পেমেন্টের মেয়াদ শেষ হয়ে গেছে।' },
  failed: { en: 'The payment could not be made.', bn: 'পেমেন্ট করা যায়নি।' },
  cancelled: { en: 'You cancelled the payment.', bn: 'আপনি পেমেন্ট বাতিল করেছেন।' },
  paid: { en: 'Payment confirmed.', bn: 'পেমেন্ট নিশ্চিত হয়েছে।' },
  agreement: { en: 'Agreement', bn: 'চুক্তি' },
  agreementWhat: {
    en: 'Let this merchant take later payments from your account with your PIN only. You can end it at any time.',
    bn: 'এই মার্চেন্ট পরের পেমেন্টগুলো শুধু আপনার পিন দিয়ে আপনার অ্যাকাউন্ট থেকে নিতে পারবে। যেকোনো সময় এটি বাতিল করতে পারবেন।',
  },
  agreed: { en: 'Agreement confirmed.', bn: 'চুক্তি নিশ্চিত হয়েছে।' },
  from: { en: 'From your saved account', bn: 'আপনার সংরক্ষিত অ্যাকাউন্ট থেকে' },
  notFound: { en: 'This payment does not exist.', bn: 'এই পেমেন্টটি পাওয়া যায়নি।' },
  badRequest: { en: 'This request could not be read.', bn: 'এই অনুরোধটি পড়া যায়নি।' },
} as const satisfies Record<string, Bilingual>;

/** "A verification code was sent to 0177*****75." */
export function codeSent(maskedWallet: string): Bilingual {
  return {
    en: `A verification code was sent to ${maskedWallet}.`,
    bn: `${toDigits(maskedWallet, 'bn')} নম্বরে একটি যাচাই কোড পাঠানো হয়েছে।`,
  };
}

export function wrongCode(triesLeft: number): Bilingual {
  return {
    en: `Wrong verification code. ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`,
    bn: `যাচাই কোড সঠিক নয়। আর ${toDigits(String(triesLeft), 'bn')} বার চেষ্টা করতে পারবেন।`,
  };
}

export function wrongPin(triesLeft: number): Bilingual {
  return {
    en: `Wrong PIN. ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`,
    bn: `পিন সঠিক নয়। আর ${toDigits(String(triesLeft), 'bn')} বার চেষ্টা করতে পারবেন।`,
  };
}

export const both = (t: Bilingual): string =>
  `<span class="bk-en">${escapeHtml(t.en)}</span> <span class="bk-bn" lang="bn">${escapeHtml(t.bn)}</span>`;

/** A whole page of the simulator: bKash's header, `main`, and the sandbox values when given. */
export function shell(base: string, head: string, main: string, sandbox: SandboxValues | null): string {
  const hint = sandbox
    ? `<p class="bk-hint">${both({
        en: `Test values: wallet ${sandbox.wallet}, code ${sandbox.code}, PIN ${sandbox.pin}`,
        bn: `পরীক্ষার মান: ওয়ালেট ${sandbox.wallet}, কোড ${sandbox.code}, পিন ${sandbox.pin}`,
      })}</p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${head}<title>${escapeHtml(`${TEXTS.title.en} · ${TEXTS.title.bn}`)}</title>
<link rel="stylesheet" href="${escapeHtml(`${base}/assets/checkout.css`)}">
</head>
<body>
<div class="bk">
<header class="bk-head"><p class="bk-logo">bKash</p><p class="bk-test">${both(TEXTS.test)}</p></header>
${main}
${hint}
</div>
</body>
</html>
`;
}

function merchant(v: CheckoutView): string {
  const a = v.agreement ?? null;
  if (a?.kind === 'create')
    return `<section class="bk-merchant" aria-label="${escapeHtml(TEXTS.merchant.en)}">
<p class="bk-merchant-name">${both(MERCHANT)}</p>
<dl class="bk-facts">
<div><dt>${both(TEXTS.agreement)}</dt><dd class="bk-agreement">${both(TEXTS.agreementWhat)}</dd></div>
</dl>
</section>`;
  const amount: Bilingual = { en: formatTaka(v.amount, 'en'), bn: formatTaka(v.amount, 'bn') };
  const from =
    a?.kind === 'pay' ? `\n<div><dt>${both(TEXTS.from)}</dt><dd class="bk-from">${escapeHtml(maskWallet(a.wallet))}</dd></div>` : '';
  return `<section class="bk-merchant" aria-label="${escapeHtml(TEXTS.merchant.en)}">
<p class="bk-merchant-name">${both(MERCHANT)}</p>
<dl class="bk-facts">
<div><dt>${both(TEXTS.invoice)}</dt><dd class="bk-invoice">${escapeHtml(v.invoice)}</dd></div>
<div><dt>${both(TEXTS.amount)}</dt><dd class="bk-amount">${both(amount)}</dd></div>${from}
</dl>
</section>`;
}

export function notice(n: Bilingual | null): string {
  return n ? `<p id="bk-notice" class="bk-notice" role="alert">${both(n)}</p>` : '';
}

type Field = { name: string; label: Bilingual; type: 'text' | 'password'; autocomplete: string; maxlength: number; placeholder: string };

const FIELDS: Record<'wallet' | 'code' | 'pin', Field> = {
  wallet: {
    name: 'wallet',
    label: TEXTS.wallet,
    type: 'text',
    autocomplete: 'tel-national',
    maxlength: 16,
    placeholder: 'e.g. 01XXXXXXXXX',
  },
  code: { name: 'code', label: TEXTS.code, type: 'text', autocomplete: 'one-time-code', maxlength: 6, placeholder: '______' },
  pin: { name: 'pin', label: TEXTS.pin, type: 'password', autocomplete: 'off', maxlength: 5, placeholder: '•••••' },
};

function step(v: CheckoutView, kind: 'wallet' | 'code' | 'pin', before: string, after: string, n: Bilingual | null): string {
  const f = FIELDS[kind];
  const action = `${v.base}/checkout/${encodeURIComponent(v.paymentID)}`;
  const invalid = n ? ' aria-invalid="true" aria-describedby="bk-notice"' : '';
  return `<main class="bk-card">
<form class="bk-form" method="post" action="${escapeHtml(`${action}/${kind}`)}">
${before}<label class="bk-label" for="bk-input">${both(f.label)}</label>
<input class="bk-input" id="bk-input" name="${f.name}" type="${f.type}" inputmode="numeric" autocomplete="${f.autocomplete}" maxlength="${f.maxlength}" placeholder="${escapeHtml(f.placeholder)}" required autofocus${invalid}>
${notice(n)}${after}<div class="bk-actions">
<button class="bk-btn bk-confirm" type="submit">${both(TEXTS.confirm)}</button>
<button class="bk-btn bk-cancel" type="submit" formaction="${escapeHtml(`${action}/cancel`)}" formnovalidate>${both(TEXTS.cancel)}</button>
</div>
</form>
</main>`;
}

/** A checkout screen of one payment. */
export function renderCheckout(v: CheckoutView, sandbox: SandboxValues | null): string {
  const s = v.screen;
  let body: string;
  let head = '';
  switch (s.kind) {
    case 'wallet':
      body = step(v, 'wallet', '', `<p class="bk-note">${both(TEXTS.terms)}</p>\n`, s.notice);
      break;
    case 'code':
      body = step(v, 'code', `<p class="bk-note">${both(codeSent(maskWallet(s.wallet)))}</p>\n`, '', s.notice);
      break;
    case 'pin':
      body = step(v, 'pin', '', '', s.notice);
      break;
    case 'done': {
      // Failure is shown before the browser goes back (a refresh after a few seconds, and the link); success and
      // cancel are redirected at once, this screen only answers a later visit.
      if (s.outcome === 'failure') head = `<meta http-equiv="refresh" content="${escapeHtml(`5;url=${s.returnUrl}`)}">\n`;
      const paid = v.agreement?.kind === 'create' ? TEXTS.agreed : TEXTS.paid;
      const title = s.outcome === 'success' ? paid : s.outcome === 'cancel' ? TEXTS.cancelled : TEXTS.failed;
      body = `<main class="bk-card bk-done bk-done-${s.outcome}">
<h1 class="bk-title">${both(title)}</h1>
${s.notice === title ? '' : `<p class="bk-notice" role="alert">${both(s.notice)}</p>\n`}${s.outcome === 'failure' ? `<p class="bk-note">${both(TEXTS.soon)}</p>\n` : ''}<p class="bk-actions"><a class="bk-btn bk-confirm" href="${escapeHtml(s.returnUrl)}">${both(TEXTS.back)}</a></p>
</main>`;
      break;
    }
  }
  return shell(v.base, head, `${merchant(v)}\n${body}`, s.kind === 'done' ? null : sandbox);
}

/** A page without a payment (unknown payment, a request that cannot be read). */
export function renderMessage(base: string, message: Bilingual): string {
  return shell(base, '', `<main class="bk-card bk-done"><h1 class="bk-title">${both(message)}</h1></main>`, null);
}
