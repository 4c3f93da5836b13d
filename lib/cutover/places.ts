// Canonical places for the cutover's normalization: one spelling per city, US states (and Canadian
// provinces) as codes, ISO 3166-1 alpha-2 countries. Known cities carry their centre, which is how
// swapped coordinates are recognised.
import { CITIES, type City } from '../directory/vocabulary';

const US_STATES: Record<string, string> = {
  alabama: 'AL', alaska: 'AK', arizona: 'AZ', arkansas: 'AR', california: 'CA', colorado: 'CO', connecticut: 'CT',
  delaware: 'DE', florida: 'FL', georgia: 'GA', hawaii: 'HI', idaho: 'ID', illinois: 'IL', indiana: 'IN', iowa: 'IA',
  kansas: 'KS', kentucky: 'KY', louisiana: 'LA', maine: 'ME', maryland: 'MD', massachusetts: 'MA', michigan: 'MI',
  minnesota: 'MN', mississippi: 'MS', missouri: 'MO', montana: 'MT', nebraska: 'NE', nevada: 'NV', 'new hampshire': 'NH',
  'new jersey': 'NJ', 'new mexico': 'NM', 'new york': 'NY', 'north carolina': 'NC', 'north dakota': 'ND', ohio: 'OH',
  oklahoma: 'OK', oregon: 'OR', pennsylvania: 'PA', 'rhode island': 'RI', 'south carolina': 'SC', 'south dakota': 'SD',
  tennessee: 'TN', texas: 'TX', utah: 'UT', vermont: 'VT', virginia: 'VA', washington: 'WA', 'west virginia': 'WV',
  wisconsin: 'WI', wyoming: 'WY', 'district of columbia': 'DC', 'washington dc': 'DC', 'washington d c': 'DC',
};
/** Common abbreviations people typed ("calif.", "Tex.", "N.Y."). Keys are lower-case without dots. */
const US_STATE_ABBREVIATIONS: Record<string, string> = {
  calif: 'CA', cali: 'CA', cal: 'CA', tex: 'TX', fla: 'FL', ill: 'IL', mass: 'MA', mich: 'MI', minn: 'MN', penn: 'PA',
  penna: 'PA', wash: 'WA', ariz: 'AZ', colo: 'CO', conn: 'CT', ore: 'OR', oreg: 'OR', tenn: 'TN', nev: 'NV', ga: 'GA',
  la: 'LA', md: 'MD', 'n y': 'NY', 'n m': 'NM',
};
const CA_PROVINCES: Record<string, string> = {
  ontario: 'ON', quebec: 'QC', 'québec': 'QC', 'british columbia': 'BC', alberta: 'AB', manitoba: 'MB', saskatchewan: 'SK',
  'nova scotia': 'NS', 'new brunswick': 'NB', 'newfoundland and labrador': 'NL', 'prince edward island': 'PE',
};
const US_CODES = new Set(Object.values(US_STATES));
const CA_CODES = new Set(Object.values(CA_PROVINCES));

const COUNTRIES: Record<string, string> = {
  us: 'US', usa: 'US', 'u s': 'US', 'u s a': 'US', 'united states': 'US', 'united states of america': 'US', america: 'US',
  ca: 'CA', can: 'CA', canada: 'CA',
  gb: 'GB', uk: 'GB', 'u k': 'GB', 'united kingdom': 'GB', 'great britain': 'GB', england: 'GB', scotland: 'GB', wales: 'GB',
  de: 'DE', deu: 'DE', germany: 'DE', deutschland: 'DE',
  nl: 'NL', nld: 'NL', netherlands: 'NL', 'the netherlands': 'NL', holland: 'NL',
  au: 'AU', aus: 'AU', australia: 'AU',
  mx: 'MX', mex: 'MX', mexico: 'MX', 'méxico': 'MX',
};

/** City aliases (lower-case, single spaces) -> the canonical city name of CITIES. */
const CITY_ALIASES: Record<string, string> = {
  nyc: 'New York', 'new york city': 'New York', 'ny': 'New York', manhattan: 'New York', 'new york ny': 'New York',
  la: 'Los Angeles', 'l a': 'Los Angeles', sf: 'San Francisco', 'san fran': 'San Francisco', philly: 'Philadelphia',
  vegas: 'Las Vegas', nola: 'New Orleans', slc: 'Salt Lake City', cdmx: 'Mexico City', 'ciudad de mexico': 'Mexico City',
  'ciudad de méxico': 'Mexico City', mtl: 'Montreal', 'montréal': 'Montreal', atl: 'Atlanta', chi: 'Chicago', 'chi town': 'Chicago',
  pdx: 'Portland',
};

const BY_NAME = new Map<string, City>(CITIES.map((c) => [c.city.toLowerCase(), c]));

/** Lower-case, dots and commas dropped, runs of space collapsed. */
export function placeKey(text: string): string {
  return text.toLowerCase().replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** "new   YORK" -> "New York" (each word capitalised; the rest lower-case). */
export function titleCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(^|[\s-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** A known city (with its state, country and centre), by name or alias. */
export function knownCity(text: string | null | undefined): City | undefined {
  if (!text) return undefined;
  const key = placeKey(text);
  const alias = CITY_ALIASES[key];
  return BY_NAME.get((alias ?? key).toLowerCase());
}

/** A US state or Canadian province as its code, or undefined when the text names neither. */
export function stateCode(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  const key = placeKey(text);
  const upper = key.toUpperCase().replace(/\s/g, '');
  if (key.length === 2 && (US_CODES.has(upper) || CA_CODES.has(upper))) return upper;
  return US_STATES[key] ?? CA_PROVINCES[key] ?? US_STATE_ABBREVIATIONS[key];
}

/** The country a state code belongs to (US or CA), if it is one of theirs. */
export function countryOfState(code: string): string | undefined {
  return US_CODES.has(code) ? 'US' : CA_CODES.has(code) ? 'CA' : undefined;
}

/** ISO 3166-1 alpha-2 code of a country as people spell it, or undefined. */
export function countryCode(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  return COUNTRIES[placeKey(text)];
}
