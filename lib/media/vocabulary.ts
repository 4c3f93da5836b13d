// The media's words: the image types intake accepts and what verification learns of a decoded
// image. Pure data and types, no imports: the intake vocabulary and the workflow code's modules
// name them.

export const mimeTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;
export type MimeType = (typeof mimeTypes)[number];

/** What verification learnt of a decoded image, recorded on the row. */
export interface ImageFacts {
  format: 'jpeg' | 'png' | 'webp' | 'heif';
  width: number;
  height: number;
  frames: number;
  /** EXIF orientation 1-8, or null when the file carries none. */
  orientation: number | null;
}
