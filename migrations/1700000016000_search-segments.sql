-- Up Migration
-- Search segments (issue 16): a total is counted exactly up to a cap (lib/directory/search.ts), but
-- a GIN bitmap cannot stop early: counting a common term's first 10,001 matches built the bitmap of
-- all of them (481,345 for "fine line" at a million studios, 165 ms before the first row). As
-- Lucene reads its index segment by segment, the search documents are split into 16 hash segments
-- of their id, each with a partial GIN index; the count reads the segments one after another and
-- stops in the first ones that hold cap + 1 matches. Each segment's index also holds the type and
-- the city (btree_gin), so a search narrowed to a city or a type intersects its posting lists in
-- the index instead of reading every text match's row to check the city. The whole-table GIN index
-- stays for the other reads (filtered pages in another order). SEGMENTS in search.ts is 16.
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX search_documents_tsv_s0 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 0;
CREATE INDEX search_documents_tsv_s1 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 1;
CREATE INDEX search_documents_tsv_s2 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 2;
CREATE INDEX search_documents_tsv_s3 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 3;
CREATE INDEX search_documents_tsv_s4 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 4;
CREATE INDEX search_documents_tsv_s5 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 5;
CREATE INDEX search_documents_tsv_s6 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 6;
CREATE INDEX search_documents_tsv_s7 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 7;
CREATE INDEX search_documents_tsv_s8 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 8;
CREATE INDEX search_documents_tsv_s9 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 9;
CREATE INDEX search_documents_tsv_s10 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 10;
CREATE INDEX search_documents_tsv_s11 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 11;
CREATE INDEX search_documents_tsv_s12 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 12;
CREATE INDEX search_documents_tsv_s13 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 13;
CREATE INDEX search_documents_tsv_s14 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 14;
CREATE INDEX search_documents_tsv_s15 ON search_documents USING gin (type, city, search_tsv) WHERE (hashtext(id) & 15) = 15;

-- Down Migration
DROP INDEX search_documents_tsv_s0, search_documents_tsv_s1, search_documents_tsv_s2, search_documents_tsv_s3,
  search_documents_tsv_s4, search_documents_tsv_s5, search_documents_tsv_s6, search_documents_tsv_s7,
  search_documents_tsv_s8, search_documents_tsv_s9, search_documents_tsv_s10, search_documents_tsv_s11,
  search_documents_tsv_s12, search_documents_tsv_s13, search_documents_tsv_s14, search_documents_tsv_s15;
DROP EXTENSION IF EXISTS btree_gin;
