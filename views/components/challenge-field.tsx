import { useTranslation } from '../i18n.tsx';
import type { ApiErrorBody } from '../../shared/api-types.ts';
import { Field } from './form.tsx';

/**
 * The question a form shows when the API asks for a challenge (docs/rules/limits.md#1-rate-limits): its text in the
 * visitor's language, an answer field and the signed token as a hidden field, so a form post without JavaScript
 * answers it. The API's answer to the request carries both (`challenge`).
 */
export type Challenge = { question: string; token: string };

/** The form fields of an answer: never sent back to refill the form (a question is answered once). */
export const CHALLENGE_FIELDS = ['challenge_token', 'challenge_answer'] as const;

/** The challenge a refusal carries, when it is one. */
export function challengeOf(error: ApiErrorBody): Challenge | undefined {
  const c = error.challenge as { question?: unknown; token?: unknown } | undefined;
  return c && typeof c.question === 'string' && typeof c.token === 'string' ? { question: c.question, token: c.token } : undefined;
}

export function ChallengeField({ challenge, error }: { challenge: Challenge; error?: string | undefined }) {
  const { t } = useTranslation('auth');
  return (
    <>
      <input type="hidden" name="challenge_token" value={challenge.token} />
      <Field
        label={challenge.question}
        name="challenge_answer"
        inputMode="numeric"
        autoComplete="off"
        maxLength={20}
        required
        hint={t('challenge.hint')}
        error={error}
      />
    </>
  );
}
