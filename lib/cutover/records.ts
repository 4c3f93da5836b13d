// The shapes of the cutover's normalization (normalize.ts): source rows as read from the legacy
// store or a file, the runtime records they become, and why a row is rejected.
import type { RecordProblem } from './file-records';
import type { TextRejection } from './row-check';
import type { UrlRefusal } from './urls';
import type { STUDIO_FIELDS } from '../directory/fields/studio';
import type { ARTIST_FIELDS } from '../directory/fields/artist';
import type { DESIGN_FIELDS } from '../directory/fields/media';
import type { ColumnsOf } from '../directory/fields/table';

export type SourceType = 'legacy_store' | 'file_import';
/** Why a cell of an imported row could not be read (file-cells.ts). */
export type CellReason = 'value_not_text' | 'invalid_number' | 'invalid_boolean' | 'invalid_id';
export type RejectReason =
  | 'deleted_in_legacy' | 'empty_name' | 'artist_not_imported' | 'missing_image_url' | 'value_out_of_range'
  | 'normalization_failed' | 'write_failed' | RecordProblem | CellReason | 'duplicate_id'
  | TextRejection | UrlRefusal;

/** Where a row came from: the legacy table and id, or the imported file and its line. */
export interface Source {
  type: SourceType;
  /** `legacy_directory`, or `file_import:<file name>`. */
  authority: string;
  /** The legacy id, or the file's id column (else the line number). */
  key: string;
  /**
   * Orders rows of one merge group: the legacy id, or the line number. The smallest gives the fields.
   * A number is exact only up to 2^53: legacy ids are given as bigint.
   */
  rank: bigint | number;
}

/** A source timestamp: a Date (possibly invalid: `infinity`), an ISO text, or epoch milliseconds (possibly ±Infinity). */
export type SourceTime = Date | string | number | null;

export interface SourceStudio {
  name: string | null;
  description: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  lat: number | null;
  lng: number | null;
  priceRange: string | null;
  rating: number | null;
  reviewsCount: number | null;
  styles: (string | null)[] | null;
  isVerified: boolean | null;
  isFeatured: boolean | null;
  status: string | null;
  createdAt: SourceTime;
  updatedAt: SourceTime;
}

export interface SourceArtist {
  name: string | null;
  bio: string | null;
  specialties: (string | null)[] | null;
  yearsExperience: number | null;
  hourlyRate: number | null;
  isActive: boolean | null;
  createdAt: SourceTime;
  updatedAt: SourceTime;
}

export interface SourceMedia {
  title: string | null;
  description: string | null;
  imageUrl: string | null;
  tags: (string | null)[] | null;
  style: string | null;
  isPublic: boolean | null;
  /** portfolio items: 'client_consented' | 'not_required' | null (unknown); designs carry no consent column (flash). */
  consent: string | null | 'flash';
  price?: number | null;
  createdAt: SourceTime;
  updatedAt: SourceTime;
}

/** Provenance and trust columns every runtime record carries (snake_case: the runtime column names). */
export interface RecordMeta {
  record_state: 'normalized' | 'raw';
  source_type: SourceType;
  origin_authority: string;
  source_url: string | null;
  source_collected_at: string | null;
  license_status: string;
  consent_level: string;
  source_notes: string[];
  verification_status: string;
  approval_status: string;
  visibility: 'public' | 'private';
  cultural_sensitivity_level: string;
  trust_notes: string[];
  created_at: string;
  updated_at: string;
  legacy_ids: string[];
  /** The source rank as a decimal integer (exact for every bigint). */
  source_rank: string;
}

/** A studio as written to the runtime store: every field of its table under its runtime column. */
export type StudioRecord = RecordMeta & { id: string } & ColumnsOf<typeof STUDIO_FIELDS>;

/** An artist as written to the runtime store: every written field of its table under its runtime column. */
export type ArtistRecord = RecordMeta & { id: string } & ColumnsOf<typeof ARTIST_FIELDS>;

/** A portfolio asset or a design as written to the runtime store: every written field of the design's table (an asset's price is not written). */
export type MediaRecord = RecordMeta & { id: string } & ColumnsOf<typeof DESIGN_FIELDS>;

export type Normalized<T> =
  | { ok: true; record: T; notes: string[]; unknownStyles: string[] }
  | { ok: false; reason: RejectReason; notes: string[] };

/** The artist's studio as the runtime knows it: its id and whether it is listed; null when independent or not imported. */
export interface StudioLink {
  id: string;
  listed: boolean;
}

