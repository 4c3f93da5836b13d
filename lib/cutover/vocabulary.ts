// The directory's vocabulary as the cutover maps free-form legacy values onto it: styles (the style
// ids of lib/directory/vocabulary.ts), price ranges and ratings.
import { STYLES, type PriceRange } from '../directory/vocabulary';

export type Style = (typeof STYLES)[number];
const compact = (s: string) => s.toLowerCase().replace(/&/g, 'and').replace(/[^\p{L}\p{N}]+/gu, '');

/** Spellings people typed, compacted (letters and digits only), that are not just the id itself. */
const STYLE_ALIASES: Record<string, Style> = {
  trad: 'traditional', americantraditional: 'traditional', oldschool: 'traditional', americana: 'traditional',
  neotrad: 'neo_traditional', neotraditional: 'neo_traditional', neotraditionnal: 'neo_traditional',
  irezumi: 'japanese', japanesetraditional: 'japanese', japan: 'japanese',
  realistic: 'realism', photorealism: 'realism', blackandgray: 'black_and_grey', bandg: 'black_and_grey', bng: 'black_and_grey', blackgrey: 'black_and_grey',
  blackgray: 'black_and_grey', fineline: 'fine_line', finelines: 'fine_line', singleneedle: 'fine_line', watercolour: 'watercolor',
  geo: 'geometric', geometry: 'geometric', dots: 'dotwork', script: 'lettering', calligraphy: 'lettering', portraits: 'portrait',
  portraiture: 'portrait', minimal: 'minimalist', minimalism: 'minimalist', illustration: 'illustrative', newschool: 'new_school',
  trashpolka: 'trash_polka', biomech: 'biomechanical', ornamentalism: 'ornamental', polynesian: 'tribal',
};
const BY_COMPACT = new Map<string, Style>([...STYLES.map((s) => [compact(s), s] as const), ...Object.entries(STYLE_ALIASES)]);

/** A style id of the vocabulary, or undefined when the text names none. */
export function styleOf(text: string): Style | undefined {
  return BY_COMPACT.get(compact(text));
}

/** "Neo   Trad!" -> "neo_trad": how an unknown style is kept (lower-case words joined by _). */
export function slugOf(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, '');
}

/** Map free-form styles onto the vocabulary: known ids (first spelling wins, order kept), and the unknown ones kept as slugs. */
export function mapStyles(values: readonly (string | null)[] | null | undefined): { styles: string[]; unknown: string[] } {
  const styles: string[] = [];
  const unknown: string[] = [];
  for (const raw of values ?? []) {
    if (raw === null) continue;
    const known = styleOf(raw);
    const value = known ?? slugOf(raw);
    if (!value || styles.includes(value)) continue;
    styles.push(value);
    if (!known) unknown.push(value);
  }
  return { styles, unknown };
}

const PRICE_WORDS: Record<string, PriceRange> = {
  cheap: '$', budget: '$', inexpensive: '$', affordable: '$', low: '$',
  moderate: '$$', mid: '$$', 'mid range': '$$', midrange: '$$', average: '$$', medium: '$$',
  pricey: '$$$', expensive: '$$$', high: '$$$',
  'high end': '$$$$', highend: '$$$$', luxury: '$$$$', premium: '$$$$', 'very expensive': '$$$$',
};

/** `$`..`$$$$` from the symbols or the words; null when absent or not understood. */
export function priceRangeOf(text: string | null | undefined): PriceRange | null {
  if (!text) return null;
  const t = text.trim().toLowerCase().replace(/[-_]/g, ' ').replace(/\s+/g, ' ');
  if (/^\${1,4}$/.test(t)) return t as PriceRange;
  return PRICE_WORDS[t] ?? null;
}

/**
 * A rating on the 5-point scale. Legacy rows imported from an older site rated out of 10: a value
 * above 5 (and at most 10) is halved; beyond 10 or below 0 it cannot be read (null).
 */
export function fivePointRating(value: number | null): { rating: number | null; rescaled: boolean } {
  if (value === null || !Number.isFinite(value) || value < 0 || value > 10) return { rating: null, rescaled: false };
  if (value > 5) return { rating: Math.round((value / 2) * 100) / 100, rescaled: true };
  return { rating: Math.round(value * 100) / 100, rescaled: false };
}
