"""The SPARQL queries (.rq), shipped as package data aifcheck.queries.

NIST's tables come in query sets, the default first: ``tag``, the queries NIST's docker runs at
AIDAED-v2022.1.1 (this folder), and ``march-2022``, those NIST's stored example outputs were made
with in March 2022 (the folder ``march-2022/`` holds the tables it changes: the two GR tables, of
22 columns; its other tables are the tag's)."""

QUERY_SETS = ("tag", "march-2022")
