/**
 * The one rule of characters in names and free text (docs/rules/security.md#10-invisible-characters): no control
 * character, no invisible one (every format character, tab, line breaks outside free text), ZWNJ/ZWJ only between two
 * Bengali-script characters. Over the whole list, and through the schemas that use it.
 */
import { ContactBody } from '../../shared/contact/schemas.ts';
import { freeText, hiddenCharacter, text } from '../../shared/fields.ts';

/** Every format character (Unicode category Cf) of the Basic Multilingual Plane and beyond, by the runtime's tables. */
const FORMAT: string[] = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const c = String.fromCodePoint(cp);
  if (/\p{Cf}/u.test(c)) FORMAT.push(c);
}
const hex = (c: string) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** The characters the issue names, each refused in a name. */
const NAMED = ['\u200e', '\u200f', '\u061c', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\t'];
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const OTHER_INVISIBLE = ['\u00ad', '\u180e', '\u2028', '\u2029', '\u034f', '\u115f', '\u1160', '\u3164', '\uffa0', '\ud800', '\n', '\r'];
const CONTROLS = ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009f', '\u000b', '\u000c'];

describe('hiddenCharacter', () => {
  test('the runtime knows the format characters the issue names', () => {
    for (const c of ['\u200e', '\u200f', '\u061c', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', ...BIDI]) expect(FORMAT).toContain(c);
    expect(FORMAT.length).toBeGreaterThan(150);
  });

  test.each(FORMAT.map((c) => [hex(c), c]))('every format character inside a Latin name is invisible: %s', (_hex, c) => {
    expect(hiddenCharacter(`Ra${c}him`)).toBe('invisible');
    expect(hiddenCharacter(`Ra${c}him`, true)).toBe('invisible');
  });

  test.each([...NAMED, ...BIDI, ...OTHER_INVISIBLE].map((c) => [hex(c), c]))('%s in a name: invisible', (_hex, c) => {
    expect(hiddenCharacter(`Rahim ${c}Uddin`)).toBe('invisible');
  });

  test.each(CONTROLS.map((c) => [hex(c), c]))('%s: a control character, in a name and in free text', (_hex, c) => {
    expect(hiddenCharacter(`Ra${c}him`)).toBe('control');
    expect(hiddenCharacter(`Ra${c}him`, true)).toBe('control');
    // A control character is named as such even after an invisible one.
    expect(hiddenCharacter(`\u200bRa${c}him`)).toBe('control');
  });

  test('free text may break lines (LF, CR), and nothing else more', () => {
    expect(hiddenCharacter('line one\nline two\r\nthree', true)).toBeNull();
    expect(hiddenCharacter('line one\nline two')).toBe('invisible');
    expect(hiddenCharacter('a\tb', true)).toBe('invisible');
    expect(hiddenCharacter('a\u2028b', true)).toBe('invisible');
  });

  test('ZWNJ and ZWJ are allowed directly between two Bengali-script characters', () => {
    for (const ok of ['র\u200d্যাব', 'র\u200c্যাব', 'ক্\u200dষ', 'রহিম র\u200d্যাব উদ্দিন', 'জ্\u200cঞ']) expect(hiddenCharacter(ok)).toBeNull();
  });

  test('ZWNJ and ZWJ anywhere else are invisible', () => {
    for (const c of ['\u200c', '\u200d'])
      for (const bad of [
        `${c}রহিম`, // at the start
        `রহিম${c}`, // at the end
        `রহিম ${c}উদ্দিন`, // after a space
        `রহিম${c} উদ্দিন`, // before a space
        `Ra${c}him`, // Latin
        `র${c}a`, // Bengali then Latin
        `a${c}র`, // Latin then Bengali
        `র${c}${c}য`, // two joiners
        `र${c}्य`, // Devanagari, not Bengali
        `১${c}2`, // a Bengali digit then an ASCII one
      ])
        expect([bad, hiddenCharacter(bad)]).toEqual([bad, 'invisible']);
  });

  test('ordinary names and text in both scripts pass', () => {
    for (const ok of ['Rahim Uddin', 'রহিম উদ্দিন', "O'Brien-Smith", 'মোঃ আব্দুল্লাহ (বাবু)', 'Dhaka ১২০৫', '৳ ১,০০০', 'Café 😀'])
      expect(hiddenCharacter(ok)).toBeNull();
  });
});

describe('the schemas use it', () => {
  const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

  test('text: invisible and control characters each have their own message; Bengali joiners pass', () => {
    expect(message(text(100).safeParse('Ra\u200bhim'))).toBe('validation:invisibleCharacters');
    expect(message(text(100).safeParse('Ra\u0000him'))).toBe('validation:controlCharacters');
    expect(message(text(100).safeParse('Ra\nhim'))).toBe('validation:invisibleCharacters');
    expect(text(100).parse('র\u200d্যাব')).toBe('র\u200d্যাব');
  });

  test('freeText keeps line breaks and refuses the rest', () => {
    expect(freeText(100).parse('one\ntwo')).toBe('one\ntwo');
    expect(message(freeText(100).safeParse('one\u200ftwo'))).toBe('validation:invisibleCharacters');
  });

  test('the contact form: a message of several lines passes, a name with a tab does not', () => {
    const ok = ContactBody.safeParse({ name: 'Rahim', email: 'a@b.co', message: 'Hello,\nmy ticket.' });
    expect(ok.success).toBe(true);
    const bad = ContactBody.safeParse({ name: 'Ra\thim', email: 'a@b.co', message: 'Hello' });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['name', 'validation:invisibleCharacters']]);
  });
});
