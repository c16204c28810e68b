"""Stage 2, validate: the rule catalogue, its two executors, and the reports they make."""
