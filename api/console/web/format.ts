// How the console writes times, ages, sizes and dimensions.

/** A time with its timezone (dateStyle/timeStyle cannot be combined with timeZoneName: V8 throws). */
export const when = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' }) : '–';

export const age = (seconds: number) => {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86400)} d ${Math.floor((seconds % 86400) / 3600)} h`;
};

export const bytes = (b: number) => (b >= 1048576 ? `${(b / 1048576).toFixed(1)} MiB` : `${Math.ceil(b / 1024)} KiB`);

/**
 * The dimensions as the image is seen: EXIF orientations 5 to 8 turn it a quarter, so the stored
 * width and height swap (the previews are already upright).
 */
export function upright(d: { width: number | null; height: number | null; imageOrientation?: number | null }): string {
  if (!d.width || !d.height) return 'unknown';
  const turned = (d.imageOrientation ?? 1) >= 5 && (d.imageOrientation ?? 1) <= 8;
  return turned ? `${d.height} × ${d.width}` : `${d.width} × ${d.height}`;
}

/** A machine value (snake_case) as words. */
export const words = (v: string) => v.replaceAll('_', ' ');
