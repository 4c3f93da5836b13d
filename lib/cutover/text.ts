// Text as the legacy application stored it: HTML tags and entities, stray spaces. Plain text out.
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…', copy: '©', reg: '®', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“' };

/** Decode HTML entities (named ones above, decimal and hex); unknown ones, NUL and surrogates stay as typed. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : m;
    }
    return NAMED[body.toLowerCase()] ?? m;
  });
}

/** One pass: script and style bodies with their tags, comments, block tags (as spaces), other tags. */
function stripTags(text: string): string {
  return text
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|table|blockquote)\b[^>]*>/gi, ' ')
    .replace(/<[/!?]?[a-z][^>]*>/gi, '')
    .replace(/<[/!?]?[a-z][^>]*$/i, '');
}

/**
 * Plain text: tags are stripped after entities are decoded, again and again until nothing changes,
 * so markup written as entities (`&lt;script&gt;`, `&amp;lt;b&amp;gt;`) goes like markup; a tag left
 * open at the end goes too. Block tags become spaces, script and style bodies go with their tags,
 * whitespace runs collapse to one space. Emoji and other characters are kept.
 */
export function plainText(text: string | null | undefined): string {
  if (!text) return '';
  let out = text;
  for (let prev = ''; out !== prev; ) {
    prev = out;
    out = decodeEntities(stripTags(out));
  }
  return out.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** plainText, and whether it changed more than the outer whitespace. */
export function cleaned(text: string | null | undefined): { text: string; changed: boolean } {
  const out = plainText(text);
  return { text: out, changed: out !== (text ?? '').trim() };
}
