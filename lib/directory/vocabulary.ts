// The directory's reference vocabulary: real city centres (WGS84) and the tattoo style ids. The
// cutover places and maps legacy values with them; the synthetic seed draws from them.

export interface City {
  city: string;
  state: string;
  country: string;
  lat: number;
  lon: number;
  /** relative weight: bigger cities get more studios */
  weight: number;
}

export const CITIES: readonly City[] = [
  { city: 'New York', state: 'NY', country: 'US', lat: 40.7128, lon: -74.006, weight: 10 },
  { city: 'Brooklyn', state: 'NY', country: 'US', lat: 40.6782, lon: -73.9442, weight: 6 },
  { city: 'Los Angeles', state: 'CA', country: 'US', lat: 34.0522, lon: -118.2437, weight: 9 },
  { city: 'San Francisco', state: 'CA', country: 'US', lat: 37.7749, lon: -122.4194, weight: 5 },
  { city: 'San Diego', state: 'CA', country: 'US', lat: 32.7157, lon: -117.1611, weight: 4 },
  { city: 'Oakland', state: 'CA', country: 'US', lat: 37.8044, lon: -122.2712, weight: 2 },
  { city: 'Chicago', state: 'IL', country: 'US', lat: 41.8781, lon: -87.6298, weight: 7 },
  { city: 'Houston', state: 'TX', country: 'US', lat: 29.7604, lon: -95.3698, weight: 6 },
  { city: 'Austin', state: 'TX', country: 'US', lat: 30.2672, lon: -97.7431, weight: 5 },
  { city: 'Dallas', state: 'TX', country: 'US', lat: 32.7767, lon: -96.797, weight: 5 },
  { city: 'San Antonio', state: 'TX', country: 'US', lat: 29.4241, lon: -98.4936, weight: 3 },
  { city: 'Phoenix', state: 'AZ', country: 'US', lat: 33.4484, lon: -112.074, weight: 4 },
  { city: 'Philadelphia', state: 'PA', country: 'US', lat: 39.9526, lon: -75.1652, weight: 4 },
  { city: 'Pittsburgh', state: 'PA', country: 'US', lat: 40.4406, lon: -79.9959, weight: 2 },
  { city: 'Seattle', state: 'WA', country: 'US', lat: 47.6062, lon: -122.3321, weight: 4 },
  { city: 'Portland', state: 'OR', country: 'US', lat: 45.5152, lon: -122.6784, weight: 4 },
  { city: 'Denver', state: 'CO', country: 'US', lat: 39.7392, lon: -104.9903, weight: 4 },
  { city: 'Miami', state: 'FL', country: 'US', lat: 25.7617, lon: -80.1918, weight: 5 },
  { city: 'Orlando', state: 'FL', country: 'US', lat: 28.5383, lon: -81.3792, weight: 3 },
  { city: 'Tampa', state: 'FL', country: 'US', lat: 27.9506, lon: -82.4572, weight: 3 },
  { city: 'Atlanta', state: 'GA', country: 'US', lat: 33.749, lon: -84.388, weight: 4 },
  { city: 'Nashville', state: 'TN', country: 'US', lat: 36.1627, lon: -86.7816, weight: 3 },
  { city: 'New Orleans', state: 'LA', country: 'US', lat: 29.9511, lon: -90.0715, weight: 3 },
  { city: 'Las Vegas', state: 'NV', country: 'US', lat: 36.1699, lon: -115.1398, weight: 4 },
  { city: 'Boston', state: 'MA', country: 'US', lat: 42.3601, lon: -71.0589, weight: 3 },
  { city: 'Detroit', state: 'MI', country: 'US', lat: 42.3314, lon: -83.0458, weight: 3 },
  { city: 'Minneapolis', state: 'MN', country: 'US', lat: 44.9778, lon: -93.265, weight: 3 },
  { city: 'Salt Lake City', state: 'UT', country: 'US', lat: 40.7608, lon: -111.891, weight: 2 },
  { city: 'Albuquerque', state: 'NM', country: 'US', lat: 35.0844, lon: -106.6504, weight: 2 },
  { city: 'Baltimore', state: 'MD', country: 'US', lat: 39.2904, lon: -76.6122, weight: 2 },
  { city: 'Toronto', state: 'ON', country: 'CA', lat: 43.6532, lon: -79.3832, weight: 4 },
  { city: 'Montreal', state: 'QC', country: 'CA', lat: 45.5017, lon: -73.5673, weight: 3 },
  { city: 'Vancouver', state: 'BC', country: 'CA', lat: 49.2827, lon: -123.1207, weight: 3 },
  { city: 'London', state: 'England', country: 'GB', lat: 51.5074, lon: -0.1278, weight: 6 },
  { city: 'Manchester', state: 'England', country: 'GB', lat: 53.4808, lon: -2.2426, weight: 2 },
  { city: 'Berlin', state: 'Berlin', country: 'DE', lat: 52.52, lon: 13.405, weight: 4 },
  { city: 'Amsterdam', state: 'North Holland', country: 'NL', lat: 52.3676, lon: 4.9041, weight: 2 },
  { city: 'Sydney', state: 'NSW', country: 'AU', lat: -33.8688, lon: 151.2093, weight: 3 },
  { city: 'Melbourne', state: 'VIC', country: 'AU', lat: -37.8136, lon: 144.9631, weight: 3 },
  { city: 'Mexico City', state: 'CDMX', country: 'MX', lat: 19.4326, lon: -99.1332, weight: 3 },
];

/** Style slugs (also the style ids of portfolio assets and designs). */
export const STYLES = [
  'traditional', 'neo_traditional', 'japanese', 'realism', 'black_and_grey', 'blackwork', 'fine_line', 'watercolor',
  'geometric', 'dotwork', 'tribal', 'lettering', 'portrait', 'minimalist', 'illustrative', 'new_school',
  'chicano', 'trash_polka', 'biomechanical', 'ornamental',
] as const;

/** A studio's price range, cheapest first. */
export const PRICE_RANGES = ['$', '$$', '$$$', '$$$$'] as const;
export type PriceRange = (typeof PRICE_RANGES)[number];
