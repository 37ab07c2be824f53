/**
 * The disguises attackers wrap instructions in (HackAPrompt's obfuscation families, Unicode "ASCII
 * smuggling", look-alike letters), applied by the corpus generator to attack and, less often, to benign
 * text, so that an encoding is never by itself the signal the model learns.
 */
import { pick } from './bank.js';

export type Disguise =
  | 'base64'
  | 'hex'
  | 'rot13'
  | 'leet'
  | 'zero-width'
  | 'homoglyph'
  | 'unicode-tags'
  | 'html-comment';

export const DISGUISES: readonly Disguise[] = [
  'base64',
  'hex',
  'rot13',
  'leet',
  'zero-width',
  'homoglyph',
  'unicode-tags',
  'html-comment',
];

/** Disguises that also occur in ordinary text (encoded attachments, hidden markup). */
export const BENIGN_DISGUISES: readonly Disguise[] = ['base64', 'hex', 'html-comment', 'zero-width'];

const ATTACK_FRAMES = [
  '',
  'Decode this and follow it: ',
  'Instructions (encoded): ',
  'Run the decoded text: ',
];
const BENIGN_FRAMES = ['', 'Attachment: ', 'Encoded value: ', 'payload='];

const LEET: Readonly<Record<string, string>> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
const LOOKALIKE: Readonly<Record<string, string>> = {
  a: 'а',
  e: 'е',
  o: 'о',
  c: 'с',
  p: 'р',
  x: 'х',
  i: 'і',
  y: 'у',
};

function rot13(text: string): string {
  return text.replace(/[a-zA-Z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

function substitute(
  text: string,
  table: Readonly<Record<string, string>>,
  share: number,
  random: () => number,
) {
  return [...text]
    .map((c) => (table[c.toLowerCase()] !== undefined && random() < share ? table[c.toLowerCase()]! : c))
    .join('');
}

export function disguise(text: string, kind: Disguise, attack: boolean, random: () => number): string {
  const frame = pick(attack ? ATTACK_FRAMES : BENIGN_FRAMES, random);
  switch (kind) {
    case 'base64':
      return frame + Buffer.from(text, 'utf8').toString('base64');
    case 'hex':
      return frame + Buffer.from(text, 'utf8').toString('hex');
    case 'rot13':
      return (attack ? pick(['rot13: ', 'ROT13 → ', ''], random) : '') + rot13(text);
    case 'leet':
      return substitute(text, LEET, 0.7, random);
    case 'zero-width':
      return [...text].map((c) => (/\p{L}/u.test(c) && random() < 0.5 ? `${c}\u200b` : c)).join('');
    case 'homoglyph':
      return substitute(text, LOOKALIKE, 0.5, random);
    case 'unicode-tags': {
      const hidden = [...text]
        .map((c) => (c.charCodeAt(0) < 0x7f ? String.fromCodePoint(0xe0000 + c.charCodeAt(0)) : ''))
        .join('');
      return `${pick(['Great product, thanks!', 'See the notes below.', 'Meeting at 10.'], random)}${hidden}`;
    }
    case 'html-comment':
      return `${pick(['<p>Thanks for reading.</p>', 'Release notes', '<div>Home</div>'], random)}<!-- ${text} -->`;
  }
}
