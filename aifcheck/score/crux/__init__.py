"""The CRUX 2023 scorers: claim frames (Task 1) and claim relations (Task 2)."""
