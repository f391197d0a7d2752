/** The refusals of the games endpoints (docs/decisions/064-refusals-as-data.md): each once, with its status and text. */
import { refusals } from '../api/refusal.ts';

export const gamesRefusals = refusals({
  game_not_found: { status: 404, code: 'not_found', text: 'api:gameNotFound', when: 'No game has this id.' },
  lucky_both: {
    status: 400,
    field: 'lucky_prize',
    text: 'validation:luckyBoth',
    when: "A change gives Lucky Chance a number of codes without a prize, or a prize without codes (with the game's stored other).",
  },
  lottery_of_game: {
    status: 409,
    text: 'api:lotteryOfGame',
    when: "A draw of a game is changed through its game: its dates, prizes, price, tickets and rollover are the game's (docs/rules/games.md).",
  },
});
