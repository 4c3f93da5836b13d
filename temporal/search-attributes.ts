import { SEARCH_ATTRIBUTE_KEYS } from '../workflows/messages';

/** name -> type as the Temporal CLI spells it for `--search-attribute KEY=TYPE`. */
export const SEARCH_ATTRIBUTES: Record<string, string> = Object.fromEntries(
  SEARCH_ATTRIBUTE_KEYS.map((k) => [k.name, k.type === 'DATETIME' ? 'Datetime' : 'Keyword']),
);
