import { identifierKind, isEmail, normaliseIdentifier, normalisePhone } from '../../shared/identifiers.ts';

describe('normalisePhone', () => {
  test.each([
    ['01712345678', '01712345678'],
    ['+8801712345678', '01712345678'],
    ['8801712345678', '01712345678'],
    ['008801712345678', '01712345678'],
    ['+880 1712-345678', '01712345678'],
    [' 017 1234 5678 ', '01712345678'],
    ['(017) 12.345.678', '01712345678'],
    ['০১৭১২৩৪৫৬৭৮', '01712345678'],
    ['+৮৮০১৭১২৩৪৫৬৭৮', '01712345678'],
    ['01312345678', '01312345678'],
  ])('%j → %j', (input, expected) => {
    expect(normalisePhone(input)).toBe(expected);
  });

  test.each([
    '',
    '0171234567',
    '017123456789',
    '02712345678',
    '1712345678',
    '+8801712345',
    '+8901712345678',
    '017-1234-567a',
    '+88+01712345678',
    '01712 345678 9',
    null,
    undefined,
  ])('rejects %p', (input) => {
    expect(normalisePhone(input)).toBeNull();
  });
});

describe('isEmail', () => {
  test.each(['a@b.co', 'rahim.uddin@example.com.bd', 'x+tag@mail.example.org', ' padded@example.com '])('accepts %j', (s) => {
    expect(isEmail(s)).toBe(true);
  });
  test.each([
    '',
    'plain',
    'a@b',
    '@example.com',
    'a@.com',
    'a@example..com',
    'a@example.com.',
    'a b@example.com',
    'a@@example.com',
    'a@exa mple.com',
    `${'a'.repeat(250)}@b.com`,
    null,
  ])('rejects %p', (s) => {
    expect(isEmail(s)).toBe(false);
  });
});

describe('identifierKind and normaliseIdentifier', () => {
  test.each([
    ['01712345678', 'phone', '01712345678'],
    ['+8801712345678', 'phone', '01712345678'],
    ['User@Example.COM', 'email', 'user@example.com'],
    ['  user@example.com ', 'email', 'user@example.com'],
  ])('%j is a %s (%s)', (s, kind, identifier) => {
    expect(identifierKind(s)).toBe(kind);
    expect(normaliseIdentifier(s)).toEqual({ kind, identifier });
  });
  test.each(['', 'user@', '12345', 'someone', '01712345678@'])('%j is neither', (s) => {
    expect(identifierKind(s)).toBeNull();
    expect(normaliseIdentifier(s)).toBeNull();
  });
});
