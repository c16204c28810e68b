"""What NIST's TA1 pipeline writes, and the table `score ta1` prints."""
