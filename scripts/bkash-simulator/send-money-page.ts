/**
 * The simulator's Send Money page (docs/rules/bkash.md#6-the-simulator): what the bKash app asks of a player who sends
 * money to a number — his wallet, the number he sends to, the amount, a reference, his PIN — and the TrxID it gives
 * him. Plain server-rendered HTML like the checkout pages (checkout-page.ts): one form posting to the simulator, no
 * script, no inline style, every value escaped, English with the Bengali below it.
 */
import { formatTaka } from '../../shared/money.ts';
import { escapeHtml } from '../../server/http/html.ts';
import { both, notice, shell, type Bilingual, type SandboxValues } from './checkout-page.ts';

export const SEND_TEXTS = {
  title: { en: 'Send Money', bn: 'সেন্ড মানি' },
  from: { en: 'Your bKash account number', bn: 'আপনার বিকাশ অ্যাকাউন্ট নম্বর' },
  to: { en: 'Send to (bKash number)', bn: 'যে নম্বরে পাঠাবেন (বিকাশ নম্বর)' },
  amount: { en: 'Amount (taka)', bn: 'টাকার পরিমাণ' },
  reference: { en: 'Reference (optional)', bn: 'রেফারেন্স (ঐচ্ছিক)' },
  pin: { en: 'Your bKash PIN', bn: 'আপনার বিকাশ পিন' },
  send: { en: 'Send', bn: 'পাঠান' },
  sent: { en: 'Send Money successful', bn: 'সেন্ড মানি সফল হয়েছে' },
  trxId: { en: 'TrxID', bn: 'ট্রানজেকশন আইডি' },
  keep: {
    en: 'Type this TrxID on your payment page at Bhagya.',
    bn: 'ভাগ্য-এর পেমেন্ট পাতায় এই ট্রানজেকশন আইডি লিখুন।',
  },
  again: { en: 'Send money again', bn: 'আবার টাকা পাঠান' },
  fromInvalid: {
    en: 'Enter your 11-digit bKash account number that starts with 01.',
    bn: '০১ দিয়ে শুরু আপনার ১১ অঙ্কের বিকাশ অ্যাকাউন্ট নম্বর দিন।',
  },
  toInvalid: {
    en: 'Enter the 11-digit bKash number to send to, starting with 01.',
    bn: 'যে নম্বরে পাঠাবেন, ০১ দিয়ে শুরু সেই ১১ অঙ্কের বিকাশ নম্বর দিন।',
  },
  sameWallet: { en: 'You cannot send money to your own number.', bn: 'নিজের নম্বরে টাকা পাঠানো যায় না।' },
  amountInvalid: {
    en: 'Enter an amount in taka, at most two decimals.',
    bn: 'টাকার পরিমাণ দিন, দশমিকের পরে সর্বোচ্চ দুই অঙ্ক।',
  },
  referenceInvalid: {
    en: 'The reference is at most 50 letters, digits and spaces.',
    bn: 'রেফারেন্স সর্বোচ্চ ৫০টি অক্ষর, অঙ্ক ও ফাঁকা জায়গা।',
  },
  pinWrong: { en: 'Wrong PIN.', bn: 'পিন সঠিক নয়।' },
  insufficientBalance: { en: 'Insufficient balance.', bn: 'আপনার অ্যাকাউন্টে পর্যাপ্ত ব্যালেন্স নেই।' },
  notFound: { en: 'This transaction does not exist.', bn: 'এই লেনদেনটি পাওয়া যায়নি।' },
} as const satisfies Record<string, Bilingual>;

/** What the form shows again: the values typed (never the PIN) and why they were not sent. */
export type SendMoneyForm = { from: string; to: string; amount: string; reference: string; notice: Bilingual | null };

type Input = { name: keyof Omit<SendMoneyForm, 'notice'> | 'pin'; label: Bilingual; type: 'text' | 'password'; mode: string; max: number };

const INPUTS: Input[] = [
  { name: 'from', label: SEND_TEXTS.from, type: 'text', mode: 'numeric', max: 16 },
  { name: 'to', label: SEND_TEXTS.to, type: 'text', mode: 'numeric', max: 16 },
  { name: 'amount', label: SEND_TEXTS.amount, type: 'text', mode: 'decimal', max: 15 },
  { name: 'reference', label: SEND_TEXTS.reference, type: 'text', mode: 'text', max: 50 },
  { name: 'pin', label: SEND_TEXTS.pin, type: 'password', mode: 'numeric', max: 5 },
];

/** The form: the player's wallet, the number and amount he sends, a reference, his PIN. */
export function renderSendMoney(base: string, f: SendMoneyForm, sandbox: SandboxValues): string {
  const fields = INPUTS.map((i) => {
    const value = i.name === 'pin' ? '' : f[i.name];
    const required = i.name === 'reference' ? '' : ' required';
    return `<label class="bk-label" for="bk-${i.name}">${both(i.label)}</label>
<input class="bk-input" id="bk-${i.name}" name="${i.name}" type="${i.type}" inputmode="${i.mode}" autocomplete="off" maxlength="${i.max}" value="${escapeHtml(value)}"${required}>`;
  }).join('\n');
  const main = `<main class="bk-card">
<h1 class="bk-title">${both(SEND_TEXTS.title)}</h1>
<form class="bk-form" method="post" action="${escapeHtml(`${base}/send-money`)}">
${fields}
${notice(f.notice)}<div class="bk-actions">
<button class="bk-btn bk-confirm" type="submit">${both(SEND_TEXTS.send)}</button>
</div>
</form>
</main>`;
  return shell(base, '', main, sandbox);
}

/** The TrxID bKash gives for money sent. */
export function renderSent(base: string, s: { trxID: string; to: string; amount: string; reference: string }): string {
  const amount: Bilingual = { en: formatTaka(s.amount, 'en'), bn: formatTaka(s.amount, 'bn') };
  const main = `<main class="bk-card bk-done bk-done-success">
<h1 class="bk-title">${both(SEND_TEXTS.sent)}</h1>
<dl class="bk-facts">
<div><dt>${both(SEND_TEXTS.trxId)}</dt><dd class="bk-trxid">${escapeHtml(s.trxID)}</dd></div>
<div><dt>${both(SEND_TEXTS.to)}</dt><dd>${escapeHtml(s.to)}</dd></div>
<div><dt>${both(SEND_TEXTS.amount)}</dt><dd class="bk-amount">${both(amount)}</dd></div>
${s.reference ? `<div><dt>${both(SEND_TEXTS.reference)}</dt><dd>${escapeHtml(s.reference)}</dd></div>\n` : ''}</dl>
<p class="bk-note">${both(SEND_TEXTS.keep)}</p>
<p class="bk-actions"><a class="bk-btn bk-confirm" href="${escapeHtml(`${base}/send-money`)}">${both(SEND_TEXTS.again)}</a></p>
</main>`;
  return shell(base, '', main, null);
}
