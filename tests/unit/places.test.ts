import { PLACES, placeOf, placePath } from '../../views/components/places.ts';
import { paths } from '../../shared/paths.ts';

describe('the player’s places (docs/rules/pages.md#10-finding-your-way)', () => {
  test('four, in the tab bar’s order; Account is the profile, or the login page for a visitor', () => {
    expect(PLACES).toEqual(['play', 'results', 'tickets', 'account']);
    expect(PLACES.map((p) => placePath(p, true))).toEqual(['/all-lotteries', '/results', '/my-lotteries', '/profile']);
    expect(PLACES.map((p) => placePath(p, false))).toEqual(['/all-lotteries', '/results', '/my-lotteries', '/login']);
  });

  test.each([
    ['/all-lotteries', 'play'],
    ['/all-lotteries/', 'play'],
    ['/quick-play', 'play'],
    [paths.quickPlay(3, '03-14-27-41-55-09'), 'play'],
    [paths.buy(3, '03-14-27-41-55-09'), 'play'],
    [paths.payment(12), 'play'],
    [paths.paymentCheckout(12), 'play'],
    [paths.bkashCallback, 'play'],
    ['/results', 'results'],
    ['/results/check', 'results'],
    [paths.results(7), 'results'],
    ['/my-lotteries', 'tickets'],
    ['/my-lotteries/activate', 'tickets'],
    [paths.prizeClaim(5), 'tickets'],
    ['/profile', 'account'],
    ['/profile/edit', 'account'],
    ['/profile/limits', 'account'],
    ['/notifications', 'account'],
    ['/reality-check', 'account'],
    ['/payment/system', 'account'],
    ['/login', 'account'],
    ['/register', 'account'],
    ['/verify-otp', 'account'],
    ['/forgot-password', 'account'],
    ['/reset-password', 'account'],
  ])('%s belongs to %s', (path, place) => {
    expect(placeOf(path)).toBe(place);
  });

  test.each(['/', '/faq', '/how-to-play', '/play-responsibly', '/notice', '/terms-conditions', '/about', '/contact', '/no-such-page'])(
    '%s belongs to no place',
    (path) => {
      expect(placeOf(path)).toBeNull();
    },
  );

  test.each(['/admin', '/admin/dashboard', '/admin/lotteries/3/draw', '/admin/users/1/edit'])('the back office %s has none', (path) => {
    expect(placeOf(path)).toBeNull();
  });

  test('a look-alike address is not a place: only whole path segments count', () => {
    expect(placeOf('/resultsx')).toBeNull();
    expect(placeOf('/profiles')).toBeNull();
    expect(placeOf('/my-lotteries-old')).toBeNull();
    expect(placeOf('/paymentx/1')).toBeNull();
  });
});
