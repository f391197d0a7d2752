import { createTranslator } from '../../shared/translate.ts';

const resources = {
  common: {
    brand: 'Bhagya',
    nav: { faq: 'FAQs' },
    greet: 'Hello {{name}}, {{ name }}!',
    items: ['a', 'b'],
    more_one: 'View {{count}} more lottery',
    more_other: 'View {{count}} more lotteries',
  },
  home: { title: 'Home' },
};

describe('createTranslator', () => {
  const t = createTranslator('en', resources);
  test('looks keys up in the default namespace and in ns:key form', () => {
    expect(t('brand')).toBe('Bhagya');
    expect(t('nav.faq')).toBe('FAQs');
    expect(t('home:title')).toBe('Home');
    expect(createTranslator('en', resources, 'home')('title')).toBe('Home');
  });
  test('interpolates {{name}} with or without spaces, missing values as empty', () => {
    expect(t('greet', { name: 'Rina' })).toBe('Hello Rina, Rina!');
    expect(t('greet')).toBe('Hello , !');
  });
  test('plurals by count with the language rules', () => {
    expect(t('more', { count: 1 })).toBe('View 1 more lottery');
    expect(t('more', { count: 3 })).toBe('View 3 more lotteries');
    // CLDR Bengali: 'one' for 0 and 1, 'other' from 2
    const bn = createTranslator('bn', resources);
    expect(bn('more', { count: 0 })).toBe('View 0 more lottery');
    expect(bn('more', { count: 2 })).toBe('View 2 more lotteries');
  });
  test('a missing key returns the key (or the default), objects only with returnObjects', () => {
    expect(t('nope.missing')).toBe('nope.missing');
    expect(t('nope', { defaultValue: 'x' })).toBe('x');
    expect(t('nav')).toBe('nav');
    expect(t<string[]>('items', { returnObjects: true })).toEqual(['a', 'b']);
  });
});
