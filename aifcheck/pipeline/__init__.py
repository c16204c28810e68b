"""NIST's docker stages per task: its SPARQL, clean and validate stages (ta2), as values."""
