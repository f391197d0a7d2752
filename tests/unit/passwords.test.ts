/** Password hashes (server/accounts/passwords.ts): scrypt with its parameters in the hash, raised at the next login. */
import { hashPassword, needsRehash, PRODUCTION_HASH_COST, setPasswordHashCost, verifyPassword } from '../../server/accounts/passwords.ts';

afterEach(() => setPasswordHashCost(10));

test('a hash names scrypt, its cost and salt; it verifies its password and no other, in NFKC', async () => {
  setPasswordHashCost(10);
  const h = await hashPassword('secret-pass-1');
  expect(h).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
  expect(await verifyPassword('secret-pass-1', h)).toBe(true);
  expect(await verifyPassword('secret-pass-2', h)).toBe(false);
  expect(await hashPassword('secret-pass-1')).not.toBe(h); // a new salt each time
  // The full-width form of the same password is the same password.
  expect(await verifyPassword('ｓｅｃｒｅｔ-pass-1', h)).toBe(true);
  for (const broken of ['', 'md5$x', 'scrypt$1024$8$1$', h.replace('scrypt', 'bcrypt')])
    expect(await verifyPassword('secret-pass-1', broken)).toBe(false);
});

test('production cost: N = 2^17; a hash made with less is replaced once the cost is raised, never one made with more', async () => {
  expect(PRODUCTION_HASH_COST).toBe(17);
  setPasswordHashCost(10);
  const weak = await hashPassword('secret-pass-1');
  expect(needsRehash(weak)).toBe(false);
  setPasswordHashCost(12);
  expect(needsRehash(weak)).toBe(true);
  const strong = await hashPassword('secret-pass-1');
  expect(strong.startsWith('scrypt$4096$8$1$')).toBe(true);
  expect(needsRehash(strong)).toBe(false);
  setPasswordHashCost(10);
  expect(needsRehash(strong)).toBe(false);
  // Both still verify: the parameters are read from each hash.
  expect(await verifyPassword('secret-pass-1', strong)).toBe(true);
  expect(await verifyPassword('secret-pass-1', weak)).toBe(true);
});
