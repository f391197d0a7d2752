/** The draw page's verifiable draw section (docs/rules/draws.md). */
import { Form } from 'react-router';
import { toDigits } from '../../../shared/dates.ts';
import { isUnverifiedBeacon, quicknetRoundTime } from '../../../shared/draws/proof.ts';
import { CsrfField } from '../../components/csrf-field.tsx';
import { Alert, SubmitButton } from '../../components/form.tsx';
import { msg } from '../../components/messages.ts';
import { DateTime } from '../../components/nowrap.tsx';
import { useTranslation } from '../../i18n.tsx';
import type { DrawProof, Result } from './page.ts';

/**
 * The verifiable draw (docs/rules/draws.md): the commitment and the drand round announced at publication, the beacon
 * value once its round has come (a form until it is entered), and "Draw winners" once sales are closed and the value is
 * known. After a draw by the procedure: the seed and what anyone can check.
 */
export function Verifiable({
  proof,
  endDate,
  now,
  drawn,
  numbers,
  action,
  result,
}: {
  proof: DrawProof;
  endDate: string;
  now: number;
  drawn: boolean;
  numbers: boolean;
  action: string;
  result: Result | undefined;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const roundAt = proof.beacon ? quicknetRoundTime(proof.beacon.round) : null;
  const value = proof.beacon && 'value' in proof.beacon ? proof.beacon.value : undefined;
  // A value typed without drand's signature (before decision 046) or a sample: shown as such, and the form stays until
  // the round's signature replaces it; the draw waits for it.
  const unverified = proof.algorithm !== 'unverifiable' && isUnverifiedBeacon(proof.beacon);
  const failed = result?.verifiable && result.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null;
  return (
    <div className="draw-section draw-verifiable">
      <h2>{t('draw.verifiable.title')}</h2>
      {proof.algorithm === 'unverifiable' ? (
        <p className="muted">{t('draw.verifiable.unverifiable')}</p>
      ) : (
        <>
          <dl className="admin-card__facts">
            <div>
              <dt>{t('draw.verifiable.commitment')}</dt>
              <dd className="admin-card__wrap hash">{proof.commitment}</dd>
            </div>
            <div>
              <dt>{t('draw.verifiable.round')}</dt>
              <dd>
                {toDigits(String(proof.beacon.round), lng)}
                {roundAt ? (
                  <>
                    {' · '}
                    <DateTime value={roundAt.toISOString()} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
                  </>
                ) : null}
              </dd>
            </div>
            {value ? (
              <div>
                <dt>{t('draw.verifiable.value')}</dt>
                <dd className="admin-card__wrap hash">{value}</dd>
                {unverified ? (
                  <dd>
                    <span className="badge badge--red">{t('draw.verifiable.unverified')}</span>{' '}
                    <span className="muted">{t('draw.verifiable.unverifiedHint')}</span>
                  </dd>
                ) : null}
              </div>
            ) : null}
            {'seed' in proof ? (
              <div>
                <dt>{t('draw.verifiable.seed')}</dt>
                <dd className="admin-card__wrap hash">{proof.seed}</dd>
              </div>
            ) : null}
          </dl>
          {failed}
          {drawn ? (
            <p className="muted">{t('seed' in proof ? 'draw.verifiable.drawnByProcedure' : 'draw.verifiable.unverifiable')}</p>
          ) : !value || unverified ? (
            roundAt && roundAt.getTime() <= now ? (
              <Form method="post" action={action} className="form draw-verifiable__beacon" preventScrollReset>
                <CsrfField />
                <div className="field">
                  <label htmlFor="draw-beacon">{t('draw.verifiable.valueLabel')}</label>
                  <input id="draw-beacon" name="beacon" type="text" autoComplete="off" spellCheck={false} maxLength={200} />
                  <p className="field__hint">{t('draw.verifiable.valueHint', { round: proof.beacon.round })}</p>
                </div>
                <SubmitButton name="intent" value="beacon" className="btn btn-primary">
                  {t('draw.verifiable.enter')}
                </SubmitButton>
              </Form>
            ) : (
              <p className="muted">{t('draw.verifiable.waitRound')}</p>
            )
          ) : Date.parse(endDate) > now ? (
            <p className="muted">{t('draw.verifiable.salesOpen')}</p>
          ) : (
            <Form method="post" action={action} preventScrollReset>
              <CsrfField />
              <SubmitButton name="intent" value="verifiable-draw" className="btn btn-primary btn-block">
                {t(numbers ? 'draw.verifiable.drawNumbers' : 'draw.verifiable.draw')}
              </SubmitButton>
            </Form>
          )}
        </>
      )}
    </div>
  );
}
