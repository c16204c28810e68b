"""NIST's evaluation stages after the SPARQL queries, per task: reading and validating the
responses as NIST's docker and scorers do, and the pools NIST sends to LDC for assessment."""
