"""R10 baseline: the public search corpus (NDJSON, exported by bench/lib/tantivy.ts) in a tantivy
index; BM25 top 20 with an exact count for each term, one query in flight. Prints one JSON line.

usage: python3 tantivy_r10.py <corpus.ndjson> <index-dir> <terms-json> <warmup> <count>
"""
import json
import sys
import time

import tantivy

corpus, index_dir, terms_json, warmup, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
terms = json.loads(terms_json)

builder = tantivy.SchemaBuilder()
builder.add_text_field("type", stored=True, tokenizer_name="raw")
builder.add_text_field("id", stored=True, tokenizer_name="raw")
# the tsvector weights of GET /search, as FTS5 (R4) gets them: name (A), place (B), the rest (C)
for field in ("name", "place", "body"):
    builder.add_text_field(field, stored=False, tokenizer_name="default")
schema = builder.build()
index = tantivy.Index(schema, path=index_dir)

started = time.perf_counter()
writer = index.writer(heap_size=256_000_000, num_threads=1)
docs = 0
with open(corpus, encoding="utf-8") as f:
    for line in f:
        r = json.loads(line)
        writer.add_document(tantivy.Document(type=r["type"], id=r["id"], name=r["name"] or "", place=r["place"] or "", body=r["body"] or ""))
        docs += 1
writer.commit()
writer.wait_merging_threads()
index.reload()
build_s = time.perf_counter() - started
searcher = index.searcher()


def words(q):
    # every word must match (as websearch_to_tsquery's AND); letters and digits only, no query syntax
    out = []
    for w in q.split():
        # lower case: AND / OR / NOT are words here, never operators (the default tokenizer lowercases anyway)
        w = "".join(ch for ch in w if ch.isalnum()).lower()
        if w:
            out.append(w)
    return " ".join(out)


def one(i):
    q = index.parse_query(words(terms[i % len(terms)]), ["name", "place", "body"], field_boosts={"name": 1.0, "place": 0.4, "body": 0.2}, conjunction_by_default=True)
    res = searcher.search(q, limit=20, count=True)
    return len(res.hits), res.count


for i in range(warmup):
    one(i)
times = []
hits = 0
counts = {}
for i in range(count):
    t = time.perf_counter()
    n, c = one(i)
    times.append((time.perf_counter() - t) * 1000)
    hits += n
    counts[terms[i % len(terms)]] = c
times.sort()


def pct(p):
    return round(times[min(len(times) - 1, int(p * len(times)))], 3)


print(json.dumps({"docs": docs, "build_s": round(build_s, 1), "n": len(times), "p50_ms": pct(0.5), "p95_ms": pct(0.95), "hits": hits, "counts": counts}))
