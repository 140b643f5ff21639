"""The knowledge base: ingestion with provenance, chunking, dense + sparse indexes and hybrid search.

Heavy libraries (chromadb, onnxruntime, sentence-transformers, bm25s) are imported inside the functions that use
them, so that `prov --help` and the CLI's cold start stay fast.
"""
