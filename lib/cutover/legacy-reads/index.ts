// Directory reads answered from the legacy store (stage legacy_authoritative) and the legacy side
// of a shadow comparison: legacy rows through the one normalization path, out in the runtime's
// API shapes (studioRecord, artistListItem), so a client cannot tell which store answered.
export { legacyCanListStudios, legacyListStudios, legacyStudiosById } from './studios';
export { legacyArtistsById, legacyCanListArtists, legacyFindArtist, legacyListArtists } from './artists';
export { legacyListMedia, legacyMediaById } from './media';
