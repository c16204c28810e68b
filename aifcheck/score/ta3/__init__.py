"""The TA3 scorer: NIST's NDCG and F1 over a run's ranked claims (see ``score_ta3``)."""
