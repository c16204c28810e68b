"""What the NIST docker stages of two or more tasks share: the AUX data, the event log, the
SPARQL stage's printing, the row checks of NIST's Validator and the assignment helper."""
