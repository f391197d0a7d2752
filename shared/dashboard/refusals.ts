/** The refusals of the dashboard endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const dashboardRefusals = refusals({});
