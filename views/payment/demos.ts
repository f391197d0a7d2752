import { redirect, type LoaderFunctionArgs } from 'react-router';
import { paths, safeFrom } from '../../shared/paths.ts';

/**
 * The spec's demo payment pages (`paths.paymentDemo`) are not product features (docs/rules/pages.md#3-older-addresses).
 * Where a payment choice leads: back to the ticket the player came from (`from`, a path of this site), else to All
 * Lotteries.
 */
export const purchaseFlowOf = (from: string | null | undefined): string => safeFrom(from) ?? paths.allLotteries;

export const toPurchaseFlow = ({ request }: LoaderFunctionArgs) => redirect(purchaseFlowOf(new URL(request.url).searchParams.get('from')));
