"""Stage 2, extract: NIST's tables as typed rows, and the one domain model built from them."""
