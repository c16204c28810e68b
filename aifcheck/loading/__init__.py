"""Stage 1, load: one file into a KB (pyoxigraph store), with the line where each node is written."""
