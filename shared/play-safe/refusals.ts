/** The refusals of the play endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const playRefusals = refusals({});
