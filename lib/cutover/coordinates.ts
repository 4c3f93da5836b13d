// Coordinates as typed: missing, 0/0, out of range, or latitude and longitude swapped. A known
// city's centre decides whether a swap is the right repair.
import type { City } from '../directory/vocabulary';

export interface Coordinates {
  latitude: number | null;
  longitude: number | null;
  /** Machine-readable notes: coordinates_missing, coordinates_zero, coordinates_swapped, coordinates_impossible. */
  notes: string[];
}

/** Near enough to a city's centre to belong to it (km). */
export const CITY_RADIUS_KM = 150;

export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

const valid = (lat: number, lon: number) => Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

export function checkCoordinates(lat: number | null | undefined, lon: number | null | undefined, city: City | undefined): Coordinates {
  if (lat === null || lat === undefined || lon === null || lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon))
    return { latitude: null, longitude: null, notes: lat === null && lon === null ? ['coordinates_missing'] : ['coordinates_impossible'] };
  if (lat === 0 && lon === 0) return { latitude: null, longitude: null, notes: ['coordinates_zero'] };
  const near = (a: number, b: number) => city !== undefined && haversineKm(a, b, city.lat, city.lon) <= CITY_RADIUS_KM;
  if (valid(lat, lon) && (city === undefined || near(lat, lon))) return { latitude: lat, longitude: lon, notes: [] };
  // the city says the pair is the other way round
  if (valid(lon, lat) && near(lon, lat)) return { latitude: lon, longitude: lat, notes: ['coordinates_swapped'] };
  if (valid(lat, lon)) return { latitude: lat, longitude: lon, notes: ['coordinates_far_from_city'] };
  return { latitude: null, longitude: null, notes: ['coordinates_impossible'] };
}
