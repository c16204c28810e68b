"""The rule shapes (SHACL + SHACL-SPARQL), shipped as package data aifcheck.shapes."""
