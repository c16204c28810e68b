"""The SPARQL queries (.rq), shipped as package data aifcheck.queries."""
