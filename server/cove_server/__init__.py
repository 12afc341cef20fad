"""Cove over HTTP: the Otari code-execution contract v1, served by Litestar."""
