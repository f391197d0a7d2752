/**
 * A lottery's name and description in the page's language (docs/rules/lotteries-and-sales.md#2-names-in-english-and-bengali):
 * the Bengali text on a Bengali page when one was given, else the English one.
 */
type Named = { name: string; name_bn?: string | null | undefined };
type Described = { description: string; description_bn?: string | null | undefined };

const given = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';

export const lotteryName = (l: Named, lng: string): string => (lng === 'bn' && given(l.name_bn) ? l.name_bn : l.name);

export const lotteryDescription = (l: Described, lng: string): string =>
  lng === 'bn' && given(l.description_bn) ? l.description_bn : l.description;
