import { useTranslation } from '../i18n.tsx';

/** Payment methods as the player sees them: only bKash is taken today (docs/rules/lotteries-and-sales.md#7-buying-a-ticket). */
const METHODS = [
  { value: 'bkash', name: 'bKash', soon: false },
  { value: 'nagad', name: 'Nagad', soon: true },
  { value: 'rocket', name: 'Rocket', soon: true },
] as const;

/**
 * The payment-method picker of the ticket page and of /payment/system: bKash chosen, Nagad and Rocket shown disabled
 * with a "Soon" badge. Radio inputs named `payment_method`, inside the caller's form.
 */
export function PaymentMethods({ error }: { error?: string | undefined }) {
  const { t } = useTranslation('lottery');
  return (
    <fieldset className={`pay-methods${error ? ' has-error' : ''}`}>
      <legend>{t('buy.method')}</legend>
      {METHODS.map((m) => (
        <label key={m.value} className={`pay-method${m.soon ? ' pay-method--soon' : ''}`}>
          <input type="radio" name="payment_method" value={m.value} defaultChecked={m.value === 'bkash'} disabled={m.soon} />
          <span className="pay-method__name">{m.name}</span>
          {m.soon ? <span className="badge badge--soon">{t('buy.soon')}</span> : null}
        </label>
      ))}
      {error ? <p className="field__error">{error}</p> : null}
    </fieldset>
  );
}
