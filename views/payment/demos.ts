import { redirect, type LoaderFunctionArgs } from 'react-router';
import { paths, safeFrom } from '../../shared/paths.ts';

/**
 * The spec's demo payment pages (`/payment/bkash`, `/payment/nogod`, `/payment/rocket`, `/payment/stripe`) are not
 * product features (docs/rules/pages.md#3-older-addresses): each leads to the real purchase flow.
 */
export const PAYMENT_DEMOS = ['bkash', 'nogod', 'rocket', 'stripe'] as const;

/** Where a payment choice leads: back to the ticket the player came from (`from`, a path of this site), else to All Lotteries. */
export const purchaseFlowOf = (from: string | null | undefined): string => safeFrom(from) ?? paths.allLotteries;

export const toPurchaseFlow = ({ request }: LoaderFunctionArgs) => redirect(purchaseFlowOf(new URL(request.url).searchParams.get('from')));
