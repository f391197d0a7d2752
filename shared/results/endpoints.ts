/** The results endpoints of the API (docs/rules/api.md#3-endpoints); shared/api/contract.ts is the union of every feature's. */
import { z } from 'zod';
import { endpoint } from '../api/endpoint.ts';
import { ArchivedResult, CheckNumbersQuery, CheckNumbersReply, FrequencyQuery, NumberFrequency, ResultsQuery } from './schemas.ts';

export const resultsEndpoints = {
  // The results archive and "check my numbers" (docs/rules/lotteries-and-sales.md#10-results-for-players) ------------
  resultsArchive: endpoint({
    method: 'GET',
    path: '/api/v1/results/',
    access: 'public',
    tag: 'results',
    query: ResultsQuery,
    reply: z.array(ArchivedResult),
    paged: true,
    refuses: [],
    summary:
      'Every drawn lottery whose results are published, newest draw first, searched by part of either name (`search`) and by ' +
      "the Dhaka day it was drawn (`date`, YYYY-MM-DD); each with its winning tickets, or a numbers draw's numbers and prizes " +
      'per tier, and whether its draw can be checked; paged, at most 20 a page (total in X-Total-Count).',
  }),
  checkNumbers: endpoint({
    method: 'GET',
    path: '/api/v1/check-numbers/',
    access: 'public',
    tag: 'results',
    query: CheckNumbersQuery,
    reply: CheckNumbersReply,
    refuses: [],
    summary:
      'Every past draw a ticket (`ticket`) won, or would have won had it been sold: the winning-tickets draws whose winners ' +
      'include it, and the latest 500 numbers draws in which it reaches a tier; with the tier, the prize and whether it was sold.',
  }),
  numberFrequency: endpoint({
    method: 'GET',
    path: '/api/v1/results/frequency/',
    access: 'public',
    tag: 'results',
    query: FrequencyQuery,
    reply: z.array(NumberFrequency),
    refuses: ['game_not_found'],
    summary:
      'How often each main number (1–55) and each last number (1–15) was drawn in the draws of a game whose results are ' +
      'published (docs/rules/games.md#7-charts): every active game with at least one, in the order they were made; or one ' +
      'game (`game`, its id), paused or not, with none drawn too (404 for no such game).',
  }),
} as const;
